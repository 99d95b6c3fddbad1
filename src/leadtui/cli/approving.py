"""A spend the command line cannot ask about (no terminal), approved in the running app instead.

Opted into with `--approve-in-app` or the profile's `approvals = "app"`: the spend is written
into the journal for the app's Approvals screen, and this process waits (a line on stderr
while it does) through the spend core's one routine (`spend/approval_wait.py`). Only a yes for
exactly this spend lets it send, itself, through the spend core; a no, the timeout or an
answer about another spend is a refusal with the quote (exit 10); Ctrl-C or SIGTERM while
waiting withdraws the request (`interrupted`, exit 130).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure, usage_failure
from leadtui.cli.spend_display import decision_failure
from leadtui.spend.approval_parties import ApprovedSpends
from leadtui.spend.approval_wait import (
    ApprovalInterrupted,
    ApprovalRefused,
    ApprovalTimedOut,
    Approved,
    InAppApproval,
    check_wait_seconds,
)
from leadtui.spend.approvals import (
    COMMAND_LINE,
    DEFAULT_WAIT_SECONDS,
    MAX_WAIT_SECONDS,
    ApprovalDesk,
    Party,
)
from leadtui.spend.decision import SpendRefused
from leadtui.spend.errors import Code, JournalError
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest

if TYPE_CHECKING:
    from leadtui.cli.runtime import Context
    from leadtui.spend.gate import SpendGate
    from leadtui.spend.intent import SpendIntent


def check_options(ctx: Context) -> None:
    """`--approval-timeout` within its bounds (exit 2 before anything is sent)."""
    seconds = getattr(ctx.ns, "approval_timeout", None)
    if seconds is None:
        return
    try:
        check_wait_seconds(seconds)
    except ValueError as exc:
        raise usage_failure(f"--approval-timeout {seconds:g}: {exc}. Nothing was sent.") from None


def _approval(ctx: Context, gate: SpendGate) -> InAppApproval:
    seconds = getattr(ctx.ns, "approval_timeout", None)
    return InAppApproval(
        gate,
        ctx.client(),
        Party.here("cli", COMMAND_LINE),
        timeout=DEFAULT_WAIT_SECONDS if seconds is None else seconds,
        sleep=ctx.deps.sleep,
        clock=ctx.deps.clock,
        report=lambda line: print(line, file=ctx.deps.stderr, flush=True),
    )


async def approved_in_app(ctx: Context, gate: SpendGate, request: SpendRequest) -> Approved:
    """Ask the running app and wait; its yes names the request it approved, exactly. Raises
    CliFailure."""
    try:
        return await _approval(ctx, gate).wait(request)
    except ApprovalRefused as refused:
        raise refusal_failure(refused, ctx.profile) from None
    except SpendRefused as exc:
        if exc.decision is not None:
            raise decision_failure(exc.decision) from None
        raise CliFailure(
            Code.CONFIRMATION_REQUIRED, exc.message, Exit.CONFIRMATION_REQUIRED
        ) from None
    except JournalError as exc:
        raise CliFailure(
            Code.JOURNAL_UNAVAILABLE,
            f"The approval request could not be written into the journal: {exc} Nothing was sent.",
            Exit.UNEXPECTED,
        ) from None


def refusal_failure(refused: ApprovalRefused, profile: str) -> CliFailure:
    """A refusal as the command line reports it (with the quote): its title once, then what
    happened. A timeout's next step names the profile and the wait; any other is its code's."""
    hint = None
    if refused.code == ApprovalTimedOut.code:
        waited = refused.waited or DEFAULT_WAIT_SECONDS
        hint = (
            f"Is leadtui running for profile '{profile}'? Open it (A shows Approvals) and run "
            f"the command again, or wait longer than {waited:.0f} s with --approval-timeout "
            f"SECONDS (at most {MAX_WAIT_SECONDS:.0f})."
        )
    interrupted = refused.code == ApprovalInterrupted.code
    return CliFailure(
        refused.code,
        refused.headline,
        Exit.INTERRUPTED if interrupted else Exit.CONFIRMATION_REQUIRED,
        hint=hint,
        details={"quote": refused.quote.to_json()},
    )


def may_ask_the_app(ctx: Context, refusal_code: str) -> bool:
    """True when a spend refused for want of a yes may be asked in the running app instead:
    opted in (`--approve-in-app`, or `approvals = "app"` in the profile), and nobody at a
    terminal to ask here."""
    if refusal_code != Code.CONFIRMATION_REQUIRED or ctx.deps.interactive():
        return False
    return bool(getattr(ctx.ns, "approve_in_app", False)) or ctx.resolved.approvals_in_app


def failure_code(exc: BaseException) -> str | None:
    """The code of a failure the command line reports (for `told_to_the_app`)."""
    return exc.code if isinstance(exc, CliFailure) else None


def who_asked(ctx: Context) -> Callable[[SpendIntent], dict[str, Any]]:
    """For `pending --json`: who asked for a spend and who approved it in the app (both None
    for a spend that was not asked in the app), the rule History reads too."""
    try:
        approved = ApprovedSpends.read(ApprovalDesk(SpendJournal(ctx.deps.journal_path)))
    except JournalError:
        approved = ApprovedSpends({})
    return lambda intent: approved.parties(intent).to_json()
