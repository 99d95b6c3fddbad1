"""The command line's one door to the spend core: it renders the spend decision and collects
the answer; it decides nothing itself.

What the command line brings is an `Authorization`: `--max-credits C` and `--max-launches N`
(hard ceilings, which also authorize what they cover: off a terminal, or with `--yes` at one),
`--yes` for a launch, and a prompt at a terminal (default No) when the decision asks. With
`--json`, `--no-input` (or LEADTUI_NO_INPUT=1), or off a terminal nobody is asked, so what would
be asked is refused with its code (exit 10). Every figure printed comes from the decision's
quote; every send goes through `SpendGate.spend`, which decides again on a fresh balance,
journals the intent with its Idempotency-Key first, and leaves an unknown outcome pending for
`leadtui pending`. Ctrl-C or SIGTERM while a spend is out prints its pending key (exit 8).
What is shown of a decision (the quote's lines, the prompt, `--dry-run`, a refusal's exit
code and hint) is `cli/spend_display.py`'s.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import Any

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import LeadError
from leadtui.api.guidance import INVALID_REQUEST
from leadtui.api.models import ExtractionRequest
from leadtui.api.urls import segment
from leadtui.cli import approving, spend_display
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure, from_lead_error, usage_failure
from leadtui.cli.output import Rows
from leadtui.cli.runtime import Context
from leadtui.cli.spend_display import decision_failure
from leadtui.config.errors import StateDirError
from leadtui.config.variables import NO_INPUT_ENV
from leadtui.spend.approval_wait import told_to_the_app
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import (
    Accepted,
    Authorization,
    AuthorizedBy,
    Decision,
    ReadOnlyProfile,
    SpendRefused,
    Surface,
    Verdict,
)
from leadtui.spend.errors import (
    Code,
    IntentClaimed,
    IntentMissing,
    IntentOfAnotherAccount,
    IntentSettled,
    JournalError,
    SpendBlocked,
    SpendOutcomeUnknown,
)
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendIntent, UnreadableIntent
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Unit, still_locked
from leadtui.spend.request import (
    SpendRequest,
    extraction_request,
    launch_request,
    unlock_request,
)

# The exit code of each refusal of the spend core that is not a decision (nothing sent); its
# error code is its own. Any other is reported as a usage error.
_REFUSALS: dict[type[SpendBlocked], Exit] = {
    ReadOnlyProfile: Exit.CONFIRMATION_REQUIRED,
    IntentMissing: Exit.NOT_FOUND,
    IntentSettled: Exit.CONFLICT,
    IntentClaimed: Exit.CONFLICT,
    IntentOfAnotherAccount: Exit.USAGE,
}


@dataclass(frozen=True)
class Spend:
    """A spend ready to decide on: what would be sent, at its quote."""

    request: SpendRequest
    still_locked: int | None = None
    """Results of the search left to unlock (None: not stated, or not an unlock)."""


def _gate(ctx: Context) -> SpendGate:
    with _reported():
        journal = SpendJournal(ctx.deps.journal_path)
    return SpendGate(journal, profile=ctx.profile, policy=ctx.resolved.policy)


async def unlock_spend(ctx: Context, search_id: str, results: int) -> Spend:
    """The quote for unlocking `results` results of a search, at the server's price."""
    search = await ctx.client().searches.get(search_id)
    request = unlock_request(search, search_id, results, ctx.ns.idempotency_key)
    return Spend(request, still_locked(search))


async def create_extraction_spend(ctx: Context, body: ExtractionRequest) -> Spend:
    return Spend(extraction_request(body, ctx.ns.idempotency_key))


async def launch_extraction_spend(ctx: Context, extraction_id: str) -> Spend:
    segment(extraction_id)  # an id that cannot be sent is refused before it is journaled
    return Spend(launch_request(extraction_id, ctx.ns.idempotency_key))


def no_input(ctx: Context) -> bool:
    """`--no-input` or LEADTUI_NO_INPUT=1: every prompt is a refusal."""
    value = os.environ.get(NO_INPUT_ENV, "").strip().lower()
    return bool(getattr(ctx.ns, "no_input", False)) or value not in ("", "0", "false", "no")


def can_prompt(ctx: Context) -> bool:
    """A person can be asked: a terminal, and neither --json nor --no-input."""
    return ctx.deps.interactive() and not ctx.out.machine and not no_input(ctx)


def authorization(ctx: Context, spend: Spend) -> Authorization:
    """What this command brings to the decision. At a terminal a ceiling authorizes only with
    `--yes` (the person is asked otherwise); off it, the ceiling is the authorization."""
    ns, asks = ctx.ns, can_prompt(ctx)
    yes = bool(getattr(ns, "yes", False))
    return Authorization(
        Surface.CLI,
        confirmed=yes and spend.request.quote.unit is Unit.LAUNCH,
        ceiling=getattr(ns, "max_credits", None),
        launch_ceiling=getattr(ns, "max_launches", None),
        ceiling_authorizes=yes or not asks,
        can_ask=asks,
    )


def priced(spend: Spend, decision: Decision) -> Spend:
    """`spend` quoted as the decision priced it (its balance read fresh)."""
    return replace(spend, request=replace(spend.request, quote=decision.quote))


async def execute(ctx: Context, spend: Spend) -> SpendResult:
    """Decide; ask when the decision asks; then spend: decided again right before the POST
    (unless nobody was asked: the decision's read is then that one), journaled, sent."""
    gate = _gate(ctx)
    auth = authorization(ctx, spend)
    with _reported():
        decision = await gate.decide(spend.request, ctx.client(), auth)
    approved, decided = None, None
    if decision.verdict is Verdict.REFUSE:
        refusal = decision_failure(decision)
        if not approving.may_ask_the_app(ctx, refusal.code):
            raise refusal
        # Opted in, nobody at a terminal: the running app's Approvals screen may say yes,
        # to the quote the decision priced (fresh balance, the price that counts).
        approved = await approving.approved_in_app(ctx, gate, priced(spend, decision).request)
        spend = replace(spend, request=approved.request)
        auth = replace(auth, confirmed=True)
    elif decision.verdict is Verdict.ASK:
        spend, auth = _asked(ctx, spend, decision, auth)
    else:
        decided = decision
        if decision.authorized_by is AuthorizedBy.BUDGET:
            ctx.out.info(decision.message)
    async with told_to_the_app(ctx.deps.journal_path, approved, approving.failure_code):
        return await _send(ctx, gate, spend, auth, decided)


def _asked(
    ctx: Context, spend: Spend, decision: Decision, auth: Authorization
) -> tuple[Spend, Authorization]:
    """The prompt's yes (else it raises), for exactly the spend and quote it showed."""
    spend_display.ask(ctx, decision, spend.still_locked)
    spend = priced(spend, decision)
    accepted = Accepted(spend.request.request_hash, decision.quote)
    return spend, replace(auth, confirmed=True, accepted=accepted)


def spent_json(ctx: Context, result: SpendResult) -> dict[str, Any]:
    """What a spend debited, as `--json` carries it beside the record: `idempotency_key`,
    `debited`, `sent_now` (a resend whose send made the debit) and `overcharge` ({quoted,
    debited, request_id}, or null). An overcharge is also a warning on stderr."""
    overcharge = result.overcharge_text()
    if overcharge is not None:
        print(f"Warning: {overcharge}", file=ctx.deps.stderr, flush=True)
    return {
        "idempotency_key": result.intent.idempotency_key,
        "debited": result.debited,
        "sent_now": result.sent_now,
        "overcharge": result.overcharge_json(),
    }


def show_spent(ctx: Context, result: SpendResult, rows: Rows) -> None:
    """What a spend made, with what it debited (`spent_json`)."""
    spent = spent_json(ctx, result)
    doc = result.record.as_sent()
    if ctx.out.machine:
        ctx.out.document(doc | spent)
        return
    ctx.out.fields(rows(doc))
    said = result.debit_text()
    if said is not None:
        ctx.out.info(said)


async def _send(
    ctx: Context,
    gate: SpendGate,
    spend: Spend,
    auth: Authorization,
    decided: Decision | None,
) -> SpendResult:
    try:
        with _terminate_cancels(), _reported():
            while True:
                try:
                    return await gate.spend(spend.request, ctx.client(), auth, decided=decided)
                except SpendRefused as refused:
                    again = refused.asks_again
                    if again is None:
                        raise
                    # The price rose after the yes: nothing was sent; the new quote is asked.
                    spend, auth = _asked(ctx, spend, again, auth)
                    decided = None  # a person was asked: the price and balance are read again
    except asyncio.CancelledError:
        raise await _interrupted(gate, spend.request) from None
    except LeadError as exc:  # a definitive refusal: journaled as rejected, nothing spent
        failure = from_lead_error(exc)
        failure.details["idempotency_key"] = spend.request.idempotency_key
        raise failure from None


@contextmanager
def _terminate_cancels() -> Iterator[None]:
    """SIGTERM while a spend is out cancels it like Ctrl-C does (asyncio.run turns SIGINT into
    a cancellation), so its pending key is printed instead of the process dying silently."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    installed = False
    if task is not None and hasattr(signal, "SIGTERM"):
        # Not the main thread, or no signals here: the default stays.
        with suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
            installed = True
    try:
        yield
    finally:
        if installed:
            loop.remove_signal_handler(signal.SIGTERM)


async def _interrupted(gate: SpendGate, request: SpendRequest) -> CliFailure:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()  # handled here: the command ends with its report, not a traceback
    key = request.idempotency_key
    try:
        intent = await asyncio.to_thread(gate.journal.get, key)
    except JournalError:
        intent = None
    if intent is None or not intent.pending:
        return CliFailure(
            Code.INTERRUPTED, "Interrupted before anything was sent.", Exit.INTERRUPTED
        )
    said = "Interrupted while the spend was being sent: whether it went through is unknown."
    return _left_pending(key, said, Code.INTERRUPTED)


async def show_dry_run(ctx: Context, spend: Spend) -> int:
    """`--dry-run`: the decision this spend would meet; nothing is sent."""
    with _reported():
        decision = await _gate(ctx).decide(spend.request, ctx.client(), authorization(ctx, spend))
    return spend_display.show_dry_run(ctx, decision, spend.still_locked)


@contextmanager
def _reported() -> Iterator[None]:
    """The spend core's refusals (nothing sent), a journal it cannot use, and an unknown
    outcome, as the command line reports them."""
    try:
        yield
    except SpendRefused as exc:
        if exc.decision is None:
            raise _refused(exc) from None
        raise decision_failure(exc.decision) from None
    except SpendBlocked as exc:
        raise _refused(exc) from None
    except (JournalError, StateDirError) as exc:
        raise CliFailure(
            Code.JOURNAL_UNAVAILABLE,
            f"{exc} Nothing was sent: a spend is only sent once it is written down.",
            Exit.UNEXPECTED,
        ) from None
    except SpendOutcomeUnknown as exc:
        cause = from_lead_error(exc.error)
        said = f"Whether the spend went through is unknown ({cause.code}: {cause.message})."
        key = exc.intent.idempotency_key
        raise _left_pending(key, said, cause.code, cause.status, cause.request_id) from None


def _refused(exc: SpendBlocked) -> CliFailure:
    exit_code = _REFUSALS.get(type(exc))
    if exit_code is None:
        return CliFailure(INVALID_REQUEST, f"{exc.title}: {exc.message}", Exit.USAGE)
    return CliFailure(exc.code, f"{exc.title}: {exc.message}", exit_code)


def _left_pending(
    key: str, said: str, cause: str, status: int | None = None, request_id: str | None = None
) -> CliFailure:
    """The server may have acted: the intent stays pending, to resend with its key (exit 8).
    `cause` is the code of what cut the send short."""
    return CliFailure(
        Code.OUTCOME_UNKNOWN,
        f"{said} It is journaled as pending under the idempotency key {key}.",
        Exit.OUTCOME_UNKNOWN,
        hint=f"Resend it with the same key (never a second debit): leadtui pending resend {key}",
        status=status,
        request_id=request_id,
        details={"idempotency_key": key, "cause": cause},
    )


def intent_json(intent: SpendIntent) -> dict[str, Any]:
    return {
        "idempotency_key": intent.idempotency_key,
        "operation": intent.operation.value,
        "params": dict(intent.params),
        "amount": intent.amount,
        "profile": intent.profile,
        "server": intent.origin,
        "account": intent.account.label,
        "surface": intent.surface or None,
        "authorized_by": intent.authorized_by,
        "debited": intent.debited,
        "created_at": intent.created_at.isoformat(),
        "attempts": intent.attempts,
        "last_error": intent.last_error,
        "outcome": intent.outcome.value if intent.outcome else None,
    }


async def pending_intents(ctx: Context) -> list[SpendIntent]:
    """This profile's, server's and account's intents whose outcome was never recorded."""
    gate = _gate(ctx)
    with _reported():
        return await gate.pending(ctx.client())


async def unreadable_intents(ctx: Context) -> list[UnreadableIntent]:
    """The journal's entries this version cannot read (never offered, never sent)."""
    gate = _gate(ctx)
    with _reported():
        return await asyncio.to_thread(gate.journal.unreadable)


async def _find(ctx: Context, gate: SpendGate, key_or_prefix: str) -> SpendIntent:
    intents = await gate.pending(ctx.client())
    matches = [i for i in intents if i.idempotency_key.startswith(key_or_prefix)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        unreadable = await asyncio.to_thread(gate.journal.unreadable)
        spoiled = [u for u in unreadable if u.idempotency_key.startswith(key_or_prefix)]
        if spoiled:
            raise CliFailure(
                Code.INTENT_UNREADABLE,
                f"The journal's entry {spoiled[0].idempotency_key} cannot be read "
                f"({spoiled[0].reason}): it is never sent. Nothing was sent.",
                Exit.CONFLICT,
            )
        raise CliFailure(
            ErrorCode.NOT_FOUND,
            f"No pending spend of this account and profile '{ctx.profile}' has the key "
            f"{key_or_prefix}.",
            Exit.NOT_FOUND,
            hint="`leadtui pending list` shows them.",
        )
    raise usage_failure(f"{len(matches)} pending spends start with {key_or_prefix}: give more.")


async def resend(ctx: Context, key_or_prefix: str) -> SpendResult:
    """Send a pending intent again with its SAME key: the server debits it at most once."""
    gate = _gate(ctx)
    with _reported():
        gate.check_allowed()
        intent = await _find(ctx, gate, key_or_prefix)
        result = await gate.resend(intent, ctx.client())
    return replace(result, replayed=True)


async def discard(ctx: Context, key_or_prefix: str) -> SpendIntent:
    """Stop offering a pending intent; it stays in the journal's history."""
    gate = _gate(ctx)
    with _reported():
        intent = await _find(ctx, gate, key_or_prefix)
        await asyncio.to_thread(gate.journal.discard, intent.idempotency_key)
        settled = gate.journal.get(intent.idempotency_key)
    return settled or intent
