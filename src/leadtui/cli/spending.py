"""The command line's one door to the spend core: quote, authorize, journal, send, recover.

The agent rule, enforced: a spend is sent only when its amount was authorized — a prompt at a
terminal (default No), `--max-credits C` covering the quote, or the profile's spend_budget
covering a price the server stated. Launches (extraction quota) need the prompt or `--yes`.
Every figure printed comes from the Quote; every send goes through the SpendGate, so it is
journaled with its Idempotency-Key first and an unknown outcome stays pending for `pending`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.api.models import Export, Extraction, ExtractionRequest, Identity
from leadtui.cli import approving
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import (
    ANOTHER_ACCOUNT,
    CONFIRMATION_REQUIRED,
    INTENT_CLAIMED,
    INTENT_SETTLED,
    INTENT_UNREADABLE,
    INVALID_REQUEST,
    JOURNAL_UNAVAILABLE,
    NOT_FOUND,
    OUTCOME_UNKNOWN,
    OVER_CEILING,
    READ_ONLY,
    CliFailure,
    from_lead_error,
    usage_failure,
)
from leadtui.cli.runtime import Context
from leadtui.config.errors import StateDirError
from leadtui.spend.errors import (
    ConfirmationRequired,
    IntentClaimed,
    IntentMissing,
    IntentOfAnotherAccount,
    IntentSettled,
    JournalError,
    ReadOnlyProfile,
    SpendBlocked,
    SpendOutcomeUnknown,
)
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendIntent, SpendOperation, UnreadableIntent
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote, Unit, plural, still_locked
from leadtui.spend.request import SpendRequest

# Each refusal of the spend core (nothing sent), by type: our error code and exit code.
_REFUSALS: dict[type[SpendBlocked], tuple[str, Exit]] = {
    ReadOnlyProfile: (READ_ONLY, Exit.CONFIRMATION_REQUIRED),
    ConfirmationRequired: (CONFIRMATION_REQUIRED, Exit.CONFIRMATION_REQUIRED),
    IntentMissing: (NOT_FOUND, Exit.NOT_FOUND),
    IntentSettled: (INTENT_SETTLED, Exit.CONFLICT),
    IntentClaimed: (INTENT_CLAIMED, Exit.CONFLICT),
    IntentOfAnotherAccount: (ANOTHER_ACCOUNT, Exit.USAGE),
}


@dataclass(frozen=True)
class Spend:
    """A spend ready to authorize: what it costs and what would be sent."""

    quote: Quote
    request: SpendRequest
    still_locked: int | None = None
    """Results of the search left to unlock (None: not stated, or not an unlock)."""


def _gate(ctx: Context) -> SpendGate:
    with _reported():
        journal = SpendJournal(ctx.deps.journal_path)
    return SpendGate(journal, profile=ctx.profile, policy=ctx.resolved.policy)


def _journal_failure(exc: Exception) -> CliFailure:
    return CliFailure(
        JOURNAL_UNAVAILABLE,
        f"{exc} Nothing was sent: a spend is only sent once it is written down.",
        Exit.UNEXPECTED,
    )


def _launches_left(identity: Identity) -> int | None:
    launches = identity.extra("extraction_launches")
    remaining = launches.get("remaining") if isinstance(launches, dict) else None
    return remaining if isinstance(remaining, int) and not isinstance(remaining, bool) else None


async def unlock_spend(client: LeadClient, search_id: str, results: int) -> Spend:
    """The quote for unlocking `results` results of a search, at the server's price."""
    search, identity = await asyncio.gather(client.searches.get(search_id), client.me())
    quote = Quote.unlock(search, results, identity.credits)
    return Spend(quote, SpendRequest.for_unlock(quote, search_id), still_locked(search))


async def create_extraction_spend(client: LeadClient, body: ExtractionRequest) -> Spend:
    identity = await client.me()
    target = "a new extraction of " + ", ".join(body.categories)
    quote = Quote.launch(SpendOperation.EXTRACTION_CREATE, target, _launches_left(identity))
    return Spend(quote, SpendRequest.for_extraction(quote, body))


async def launch_extraction_spend(client: LeadClient, extraction_id: str) -> Spend:
    identity = await client.me()
    quote = Quote.launch(
        SpendOperation.EXTRACTION_LAUNCH, f"draft {extraction_id}", _launches_left(identity)
    )
    return Spend(quote, SpendRequest.for_launch(quote, extraction_id))


def quote_lines(spend: Spend) -> list[tuple[str, str]]:
    """The quote as the prompt and `--dry-run` show it, every figure from the Quote."""
    quote = spend.quote
    if quote.unit is Unit.CREDIT:
        what = f"unlock {plural(quote.units, 'result')} of {quote.target}"
        price = f"{plural(quote.price, 'credit')} per result ({quote.price_source.value})"
    else:
        what = f"launch {quote.target}"
        price = quote.price_source.value
    unit = quote.unit.value
    if quote.balance is None:
        balance = "unknown"
    else:
        balance = f"{plural(quote.balance, unit)} → {plural(quote.balance_after or 0, unit)}"
    rows = [("Spend", what), ("Price", price), ("Total", quote.total_text()), ("Balance", balance)]
    if quote.shortfall:
        rows.append(("Short by", plural(quote.shortfall, unit)))
    if spend.still_locked is not None and spend.still_locked < quote.units:
        rows.append(("Left to unlock", f"only {plural(spend.still_locked, 'result')}"))
    return rows


def _refusal(code: str, message: str, quote: Quote, hint: str) -> CliFailure:
    return CliFailure(
        code, message, Exit.CONFIRMATION_REQUIRED, hint=hint, details={"quote": quote.to_json()}
    )


def _prompt(ctx: Context, spend: Spend) -> bool:
    lines = quote_lines(spend)
    width = max(len(name) for name, _ in lines)
    for name, value in lines:
        ctx.deps.stderr.write(f"  {name.ljust(width)}  {value}\n")
    answer = ctx.deps.ask(f"Spend {spend.quote.total_text()}? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def authorization(ctx: Context, gate: SpendGate, spend: Spend) -> str | None:
    """How this spend is authorized without asking anyone: "max-credits", "budget", "yes",
    or None (a person must confirm, or nothing is sent). Raises over_ceiling."""
    quote = spend.quote
    ceiling: int | None = getattr(ctx.ns, "max_credits", None)
    if quote.unit is Unit.LAUNCH:
        return "yes" if ctx.ns.yes else None
    if ceiling is not None:
        if quote.total > ceiling:
            raise _refusal(
                OVER_CEILING,
                f"This spend costs {quote.total_text()}, over --max-credits {ceiling:,}. "
                "Nothing was sent.",
                quote,
                f"Rerun with --max-credits {quote.total} to authorize it, or ask for fewer.",
            )
        return "max-credits"
    if not gate.requires_confirmation(spend.request):
        return "budget"
    return None


def authorize(ctx: Context, gate: SpendGate, spend: Spend) -> None:
    """Return only when the spend may be sent; otherwise raise (exit 10, nothing sent)."""
    with _reported():
        gate.check_allowed()
    how = authorization(ctx, gate, spend)
    # --yes skips the prompt only within what --max-credits (or a launch's --yes) covers.
    if how in ("max-credits", "yes") and ctx.ns.yes:
        return
    if ctx.deps.interactive():
        if how == "budget":
            ctx.out.info(
                f"{spend.quote.total_text()} is within this profile's spend_budget of "
                f"{plural(gate.policy.spend_budget, 'credit')}: sent without asking."
            )
            return
        if _prompt(ctx, spend):
            return
        raise _refusal(
            CONFIRMATION_REQUIRED, "Cancelled: nothing was sent.", spend.quote, "Answer y to spend."
        )
    if how is not None:
        return
    if spend.quote.unit is Unit.LAUNCH:
        hint = "Rerun with --yes to consume the launch, or run it at a terminal to be asked."
    else:
        hint = (
            f"Rerun with --max-credits {spend.quote.total} (or more) to authorize this amount, "
            "or run it at a terminal to be asked."
        )
    raise _refusal(
        CONFIRMATION_REQUIRED,
        f"This spend ({spend.quote.total_text()}) was not authorized. Nothing was sent.",
        spend.quote,
        hint,
    )


def dry_run_document(ctx: Context, spend: Spend) -> dict[str, Any]:
    """What `--dry-run` prints: the quote and whether this command would be authorized."""
    gate = _gate(ctx)
    how: str | None
    refused: str | None
    try:
        how = authorization(ctx, gate, spend)
    except CliFailure as exc:
        how, refused = None, exc.code
    else:
        refused = None if how else CONFIRMATION_REQUIRED
    if gate.policy.read_only:
        how, refused = None, READ_ONLY
    return {
        "dry_run": True,
        "quote": spend.quote.to_json(),
        "authorized_by": how,
        "refused": refused,
        "still_locked": spend.still_locked,
    }


def show_dry_run(ctx: Context, spend: Spend) -> int:
    """`--dry-run`: print the quote (JSON with --json); nothing that spends is sent."""
    doc = dry_run_document(ctx, spend)
    if ctx.out.machine:
        ctx.out.document(doc)
    else:
        how = doc["authorized_by"] or f"not authorized ({doc['refused']})"
        ctx.out.fields([*quote_lines(spend), ("Authorized", how), ("Sent", "nothing (dry run)")])
    return 0


@contextmanager
def _reported() -> Iterator[None]:
    """The spend core's refusals (nothing sent), a journal it cannot use, and an unknown
    outcome, as the command line reports them."""
    try:
        yield
    except SpendBlocked as exc:
        raise _refused(exc) from None
    except (JournalError, StateDirError) as exc:
        raise _journal_failure(exc) from None
    except SpendOutcomeUnknown as exc:
        raise _outcome_unknown(exc) from None


async def execute(ctx: Context, spend: Spend) -> Export | Extraction:
    """Authorize (or, opted in and without a terminal, have it approved in the running app),
    then send through the gate (journal first, same key on every attempt)."""
    gate = _gate(ctx)
    approved = None
    try:
        authorize(ctx, gate, spend)
    except CliFailure as refusal:
        if not approving.may_ask_the_app(ctx, refusal.code):
            raise
        spend, approved = await approving.approved_in_app(ctx, gate, spend)
    with approving.told_to_the_app(ctx, approved):
        try:
            with _reported():
                result = await gate.execute(spend.request, ctx.client(), confirmed=True)
        except LeadError as exc:  # a definitive refusal: journaled as rejected, nothing spent
            failure = from_lead_error(exc)
            failure.details["idempotency_key"] = spend.request.idempotency_key
            raise failure from None
    return result.record


def _refused(exc: SpendBlocked) -> CliFailure:
    code, exit_code = _REFUSALS.get(type(exc), (INVALID_REQUEST, Exit.USAGE))
    return CliFailure(code, f"{exc.title}: {exc.message}", exit_code)


def _outcome_unknown(exc: SpendOutcomeUnknown) -> CliFailure:
    """The server may have acted: the intent stays pending, to resend with its key (exit 8)."""
    key, cause = exc.intent.idempotency_key, from_lead_error(exc.error)
    return CliFailure(
        OUTCOME_UNKNOWN,
        f"Whether the spend went through is unknown ({cause.code}: {cause.message}). It is "
        f"journaled as pending under the idempotency key {key}.",
        Exit.OUTCOME_UNKNOWN,
        hint=f"Resend it with the same key (never a second debit): leadtui pending resend {key}",
        status=cause.status,
        request_id=cause.request_id,
        details={"idempotency_key": key, "cause": cause.code},
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
                INTENT_UNREADABLE,
                f"The journal's entry {spoiled[0].idempotency_key} cannot be read "
                f"({spoiled[0].reason}): it is never sent. Nothing was sent.",
                Exit.CONFLICT,
                hint="Check the account's exports or extractions for it on the server.",
            )
        raise CliFailure(
            NOT_FOUND,
            f"No pending spend of this account and profile '{ctx.profile}' has the key "
            f"{key_or_prefix}.",
            Exit.NOT_FOUND,
            hint="`leadtui pending list` shows them.",
        )
    raise usage_failure(f"{len(matches)} pending spends start with {key_or_prefix}: give more.")


async def resend(ctx: Context, key_or_prefix: str) -> Export | Extraction:
    """Send a pending intent again with its SAME key: the server debits it at most once."""
    gate = _gate(ctx)
    with _reported():
        gate.check_allowed()
        intent = await _find(ctx, gate, key_or_prefix)
        result = await gate.resend(intent, ctx.client())
    return result.record


async def discard(ctx: Context, key_or_prefix: str) -> SpendIntent:
    """Stop offering a pending intent; it stays in the journal's history."""
    gate = _gate(ctx)
    with _reported():
        intent = await _find(ctx, gate, key_or_prefix)
        await asyncio.to_thread(gate.journal.discard, intent.idempotency_key)
        settled = gate.journal.get(intent.idempotency_key)
    return settled or intent
