"""A spend this client cannot ask its user about, approved in the running leadtui app instead
(`--approve-in-app` or the profile's `approvals = "app"`), through the spend core's one routine
(`spend/approval_wait.py`), naming the agent as its client named itself.

The wait is told as progress notifications and on standard error (the server's log on stdio:
it declares no MCP logging capability). Only a yes for exactly the spend this process holds
lets the tool send it; anything else is a tool error with its code and the quote.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Final, TextIO

from mcp.server.mcpserver import Context

from leadtui.mcp.asking import Answer, Asked
from leadtui.mcp.results import ToolFailure
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.spend_answers import quote_words, refused_unsent
from leadtui.spend.approval_wait import (
    ApprovalInterrupted,
    ApprovalMismatch,
    ApprovalRefused,
    ApprovalTimedOut,
    DeniedInApp,
    InAppApproval,
)
from leadtui.spend.approvals import (
    DEFAULT_WAIT_SECONDS,
    MAX_WAIT_SECONDS,
    Party,
)
from leadtui.spend.decision import Decision, Surface
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


def _wait_told(
    ctx: Context[Any, Any], clock: Callable[[], float], total: float, stderr: TextIO
) -> Callable[[str], Awaitable[None]]:
    """Each line of the wait to standard error, and as a progress notification (seconds
    waited of the timeout; a no-op without a progress token)."""
    started, told = clock(), -1.0

    async def report(line: str) -> None:
        nonlocal told
        stderr.write(f"leadtui mcp: {line}\n")
        stderr.flush()
        done = min(clock() - started, total)
        if done > told:  # the protocol wants progress to grow with each notification
            told = done
            await ctx.report_progress(done, total, line)

    return report


# What to do after the app's answer was no, or about another spend: never ask again unbidden.
_NOT_AGAIN: Final[dict[str, str]] = {
    DeniedInApp.code: "The user said no: do not retry unless they ask for it.",
    ApprovalMismatch.code: "The answer was about another spend (the request was changed while "
    "it waited): do not retry unless the user asks for it.",
    ApprovalInterrupted.code: "The server was interrupted (SIGINT or SIGTERM) while it waited: "
    "the request is withdrawn. Do not retry unless the user asks for it.",
}


def _after_the_app(refusal: ApprovalRefused) -> str:
    if refusal.code != ApprovalTimedOut.code:
        return _NOT_AGAIN.get(refusal.code, _NOT_AGAIN[DeniedInApp.code])
    waited = refusal.waited or DEFAULT_WAIT_SECONDS
    return (
        f"Nobody answered within {waited:.0f} s. Ask the user to keep leadtui open (A shows "
        "Approvals), then call again; the user may restart this server with "
        f"--approval-timeout SECONDS (at most {MAX_WAIT_SECONDS:.0f}) for a longer wait."
    )


def refused_in_app(decision: Decision, refusal: ApprovalRefused) -> ToolFailure:
    """No yes from the running app for this spend (denied, timed out, interrupted, or an
    answer about another spend): nothing was sent."""
    return ToolFailure(
        refusal.code,
        f"{refusal.headline} Cost: {quote_words(refusal.quote)}.",
        hint=_after_the_app(refusal),
        details={"quote": refusal.quote.to_json(), "decision": decision.to_json()},
    )


async def approved_in_app(
    runtime: Runtime, ctx: Context[Any, Any], decision: Decision, request: SpendRequest
) -> Answer:
    """Ask the running app about `request` at the decision's quote and wait: a yes with the
    spend it approved, exactly. Raises ToolFailure (denied, timed out, interrupted, mismatch;
    or the journal could not be written)."""
    request = dataclasses.replace(request, quote=decision.quote)
    timeout = runtime.options.approval_timeout or DEFAULT_WAIT_SECONDS
    approval = InAppApproval(
        runtime.gate(),
        runtime.client(),
        who_asks(ctx),
        timeout=timeout,
        sleep=runtime.deps.sleep,
        clock=runtime.deps.clock,
        report=_wait_told(ctx, runtime.deps.clock, timeout, runtime.deps.stderr or sys.stderr),
    )
    async with refused_unsent():
        try:
            return Answer(Asked.YES, await approval.wait(request))
        except ApprovalRefused as refusal:
            raise refused_in_app(decision, refusal) from None


def failure_code(exc: BaseException) -> str | None:
    """The code of a tool's failure (for `told_to_the_app`)."""
    return exc.code if isinstance(exc, ToolFailure) else None
