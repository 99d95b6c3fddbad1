"""`exports wait` and `extractions wait`: poll until the job settles, on the server's
`Retry-After` (never faster), within a timeout measured on the injected clock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from leadtui.api.guidance import TIMEOUT
from leadtui.api.models import Record
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import WILL_NOT_SETTLE, CliFailure
from leadtui.cli.runtime import Context

R = TypeVar("R", bound=Record)


@dataclass(frozen=True)
class Goal:
    """Which states end a wait, and how. A state in `idle` will not change by itself (a
    draft waits for its launch, a paused job for its resume): waiting on it ends at once,
    with what would move it on."""

    succeeded: frozenset[str]
    failed: frozenset[str]
    idle: Mapping[str, str] = field(default_factory=dict)

    def exit_for(self, status: str | None) -> Exit | None:
        if status in self.succeeded:
            return Exit.OK
        if status in self.failed:
            return Exit.JOB_FAILED
        return None


async def wait_for(
    ctx: Context,
    fetch: Callable[[], Awaitable[R]],
    goal: Goal,
    describe: Callable[[R], str],
    seconds: float,
) -> tuple[R, Exit]:
    """Poll `fetch` until the record reaches a state of `goal`; raise `timeout` (exit 4)
    when the next poll would fall after `seconds`."""
    clock, sleep = ctx.deps.clock, ctx.deps.sleep
    deadline = clock() + seconds
    while True:
        record = await fetch()
        status = getattr(record, "status", None)
        settled = goal.exit_for(status)
        idle = status is not None and status in goal.idle
        ctx.out.progress(describe(record), done=settled is not None or idle)
        if settled is not None:
            return record, settled
        if idle:
            raise CliFailure(
                WILL_NOT_SETTLE,
                f"It is {status}: it will not move on by itself, so waiting would never end.",
                Exit.CONFLICT,
                hint=goal.idle[str(status)],
                details={"job_status": status},
            )
        interval = record.next_poll_seconds()
        remaining = deadline - clock()
        if interval > remaining:
            if remaining > 0:
                await sleep(remaining)
            ctx.out.progress(describe(record), done=True)
            raise CliFailure(
                TIMEOUT,
                f"Still {status} after {seconds:g} s.",
                Exit.WAIT_TIMED_OUT,
                hint="Wait longer with --timeout, or run the same command again later.",
                details={"job_status": status},
            )
        await sleep(interval)
