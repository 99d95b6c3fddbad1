"""A spend the command line cannot ask about (no terminal), approved in the running app instead.

Opted into with `--approve-in-app` or the profile's `approvals = "app"`: the spend is written
beside the journal for the app's Approvals screen, and this process waits (a line on stderr
while it does). Only a yes for exactly this quote lets it send, itself, through the spend core;
a no, the timeout or an answer that does not match is a refusal with the quote (exit 10).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from leadtui.api.models import ExtractionRequest
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import (
    CONFIRMATION_REQUIRED,
    JOURNAL_UNAVAILABLE,
    OUTCOME_UNKNOWN,
    CliFailure,
    usage_failure,
)
from leadtui.spend.approval_parties import ApprovedSpends
from leadtui.spend.approval_records import Party, Progress
from leadtui.spend.approval_wait import (
    ApprovalMismatch,
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
    approvals_folder,
)
from leadtui.spend.intent import SpendOperation
from leadtui.spend.origin import spend_origin

if TYPE_CHECKING:
    from leadtui.cli.runtime import Context
    from leadtui.cli.spending import Spend
    from leadtui.spend.gate import SpendGate
    from leadtui.spend.intent import SpendIntent
    from leadtui.spend.request import SpendRequest


def opted_in(ctx: Context) -> bool:
    """`--approve-in-app`, or `approvals = "app"` in this profile's settings."""
    return bool(getattr(ctx.ns, "approve_in_app", False)) or ctx.resolved.approvals_in_app


def check_options(ctx: Context) -> None:
    """`--approval-timeout` within its bounds (exit 2 before anything is sent)."""
    seconds = getattr(ctx.ns, "approval_timeout", None)
    if seconds is None:
        return
    try:
        check_wait_seconds(seconds)
    except ValueError as exc:
        raise usage_failure(f"--approval-timeout {seconds:g}: {exc}. Nothing was sent.") from None


def _approval(ctx: Context) -> InAppApproval:
    seconds = getattr(ctx.ns, "approval_timeout", None)
    stderr = ctx.deps.stderr

    def tell(line: str) -> None:
        stderr.write(line + "\n")
        stderr.flush()

    approval = InAppApproval(
        ApprovalDesk(approvals_folder(ctx.deps.journal_path)),
        Party.here("cli", COMMAND_LINE),
        sleep=ctx.deps.sleep,
        clock=ctx.deps.clock,
        report=tell,
    )
    if seconds is not None:
        approval.timeout = seconds
    return approval


async def approved_in_app(ctx: Context, gate: SpendGate, spend: Spend) -> tuple[Spend, Approved]:
    """Ask the running app and wait; the spend it approved, exactly. Raises CliFailure."""
    client = ctx.client()
    approval = _approval(ctx)

    async def requote(request: SpendRequest) -> SpendRequest:
        fresh = await _quote_again(ctx, request)
        return dataclasses.replace(fresh.request, idempotency_key=request.idempotency_key)

    try:
        approved = await approval.wait(
            spend.request,
            profile=ctx.profile,
            origin=spend_origin(client.base_url),
            account=await gate.account_of(client),
            requote=requote,
        )
    except ApprovalRefused as refused:
        raise refusal_failure(refused, ctx.profile) from None
    except OSError as exc:
        raise CliFailure(
            JOURNAL_UNAVAILABLE,
            f"The approval request could not be written beside the journal: {exc}. Nothing "
            "was sent.",
            Exit.UNEXPECTED,
        ) from None
    request = approved.request
    return dataclasses.replace(spend, quote=request.quote, request=request), approved


async def _quote_again(ctx: Context, request: SpendRequest) -> Spend:
    from leadtui.cli import spending

    params = request.params
    if request.operation is SpendOperation.UNLOCK:
        spend = await spending.unlock_spend(
            ctx, str(params["search_id"]), int(params["additional_results"])
        )
    elif request.operation is SpendOperation.EXTRACTION_CREATE:
        body = ExtractionRequest.model_validate(params["request"])
        spend = await spending.create_extraction_spend(ctx, body)
    else:
        spend = await spending.launch_extraction_spend(ctx, str(params["extraction_id"]))
    return spending.priced(spend, await spending.decide(ctx, spend))


def refusal_failure(refused: ApprovalRefused, profile: str) -> CliFailure:
    """A refusal as the command line reports it (exit 10, with the quote): its title once,
    then what happened, and a next step that fits its code."""
    return CliFailure(
        refused.code,
        refused.headline,
        Exit.CONFIRMATION_REQUIRED,
        hint=refusal_hint(refused, profile),
        details={"quote": refused.quote.to_json()},
    )


def refusal_hint(refused: ApprovalRefused, profile: str) -> str:
    """What to do after a refusal, in the command line's words (branches on the code)."""
    if refused.code == ApprovalTimedOut.code:
        waited = refused.waited or DEFAULT_WAIT_SECONDS
        return (
            f"Is leadtui running for profile '{profile}'? Open it (A shows Approvals) and run "
            f"the command again, or wait longer than {waited:.0f} s with --approval-timeout "
            f"SECONDS (at most {MAX_WAIT_SECONDS:.0f})."
        )
    if refused.code == ApprovalMismatch.code:
        return (
            "The request changed while it waited; run the command again to ask anew (an "
            "approval counts only for the spend it names)."
        )
    return "Run the command again to ask the app again."


def may_ask_the_app(ctx: Context, refusal_code: str) -> bool:
    """True when a spend refused for want of a yes may be asked in the running app instead:
    opted in, and nobody at a terminal to ask here."""
    return refusal_code == CONFIRMATION_REQUIRED and opted_in(ctx) and not ctx.deps.interactive()


@contextmanager
def told_to_the_app(ctx: Context, approved: Approved | None) -> Iterator[None]:
    """Around the send of an approved spend: its request file says how it ended."""
    if approved is None:
        yield
        return
    try:
        yield
    except CliFailure as failure:
        unknown = failure.code == OUTCOME_UNKNOWN
        progress = Progress.UNKNOWN if unknown else Progress.NOT_SENT
        _approval(ctx).settled(approved, progress, {"code": failure.code})
        raise
    except BaseException:
        _approval(ctx).settled(approved, Progress.UNKNOWN, {"code": "interrupted"})
        raise
    _approval(ctx).settled(approved, Progress.SENT, {"code": "sent"})


def who_asked(ctx: Context) -> Callable[[SpendIntent], dict[str, Any]]:
    """For `pending --json`: who asked for a spend and who approved it in the app (both None
    for a spend that was not asked in the app), the rule History reads too."""
    approved = ApprovedSpends.read(ApprovalDesk(approvals_folder(ctx.deps.journal_path)))
    return lambda intent: approved.parties(intent).to_json()
