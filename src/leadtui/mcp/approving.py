"""A spend this client cannot ask its user about, approved in the running leadtui app instead.

Opted into with `leadtui mcp --approve-in-app` or the profile's `approvals = "app"`: the spend
is written beside the journal for the app's Approvals screen, naming the agent (the client's
`initialize` info) and this process, and the call waits. Meanwhile the client hears how the
wait goes: a progress notification when the call carries a progress token, and a line on
standard error (the server's log on stdio: this server declares no MCP logging capability).
Only a yes for exactly the spend this process holds lets the tool send it, itself, through the
spend core; a no, the timeout or an answer that does not match is a refusal with the quote.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from mcp.server.mcpserver import Context

from leadtui.mcp.results import ToolFailure
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.spend_answers import JOURNAL_UNAVAILABLE, OUTCOME_UNKNOWN, refused_in_app
from leadtui.spend.approval_records import Party, Progress
from leadtui.spend.approval_wait import ApprovalRefused, Approved, InAppApproval, Requote
from leadtui.spend.approvals import DEFAULT_WAIT_SECONDS, ApprovalDesk, approvals_folder
from leadtui.spend.decision import Decision, Surface
from leadtui.spend.origin import spend_origin
from leadtui.spend.request import SpendRequest

UNNAMED: Final = "an MCP client"
# The name comes from the client: shown to the person in the app, so kept short and printable.
_NAME_MAX: Final = 80


def who_asks(ctx: Context[Any, Any]) -> Party:
    """The agent as its client named itself at `initialize` (name and version), this process
    and now."""
    params = ctx.session.client_params
    info = None if params is None else params.client_info
    named = UNNAMED if info is None else f"{info.name} {info.version}"
    shown = "".join(char for char in named if char.isprintable()).strip()[:_NAME_MAX]
    return Party.here(Surface.AGENT.value, shown or UNNAMED)


@dataclass
class WaitReport:
    """`InAppApproval`'s report hook: each line to standard error, and as a progress
    notification (seconds waited of the timeout; a no-op without a progress token)."""

    ctx: Context[Any, Any]
    clock: Callable[[], float]
    total: float
    stderr: TextIO
    started: float = field(init=False)
    told: float = field(init=False, default=-1.0)

    def __post_init__(self) -> None:
        self.started = self.clock()

    async def __call__(self, line: str) -> None:
        self.stderr.write(f"leadtui mcp: {line}\n")
        self.stderr.flush()
        done = min(self.clock() - self.started, self.total)
        if done <= self.told:  # the protocol wants progress to grow with each notification
            return
        self.told = done
        await self.ctx.report_progress(done, self.total, line)


async def approved_in_app(
    runtime: Runtime,
    ctx: Context[Any, Any],
    decision: Decision,
    request: SpendRequest,
    requote: Requote,
) -> Approved:
    """Ask the running app about `request` (at the decision's quote) and wait: the spend it
    approved, exactly. Raises ToolFailure (denied, timed out, mismatch; or no request file)."""
    client = runtime.client()
    timeout = runtime.options.approval_timeout or DEFAULT_WAIT_SECONDS
    approval = InAppApproval(
        ApprovalDesk(approvals_folder(runtime.deps.journal_path)),
        who_asks(ctx),
        timeout=timeout,
        sleep=runtime.deps.sleep,
        clock=runtime.deps.clock,
        report=WaitReport(ctx, runtime.deps.clock, timeout, runtime.deps.stderr or sys.stderr),
    )
    try:
        return await approval.wait(
            request,
            profile=runtime.profile,
            origin=spend_origin(client.base_url),
            account=await runtime.gate().account_of(client),
            requote=requote,
        )
    except ApprovalRefused as refusal:
        raise refused_in_app(decision, refusal) from None
    except OSError as exc:
        raise ToolFailure(
            JOURNAL_UNAVAILABLE,
            f"The approval request could not be written beside the journal ({exc}). Nothing "
            "was sent.",
        ) from None


@contextlib.asynccontextmanager
async def told_to_the_app(runtime: Runtime, approved: Approved) -> AsyncIterator[None]:
    """Around the send of an approved spend: its request file says how it ended (the journal
    holds the outcome; the file only tells the app)."""
    desk = ApprovalDesk(approvals_folder(runtime.deps.journal_path))

    async def ended(progress: Progress, code: str) -> None:
        with contextlib.suppress(OSError):
            await asyncio.to_thread(desk.update, approved.record, progress, {"code": code})

    try:
        yield
    except ToolFailure as failure:
        unknown = failure.code == OUTCOME_UNKNOWN
        await ended(Progress.UNKNOWN if unknown else Progress.NOT_SENT, failure.code)
        raise
    except BaseException:
        # Cancelled mid-send: whether it went through is the journal's to say.
        with contextlib.suppress(OSError):
            desk.update(approved.record, Progress.UNKNOWN, {"code": "interrupted"})
        raise
    await ended(Progress.SENT, "sent")
