"""The one UI path for every credit-consuming action (unlock, extraction create/launch).

`confirm_and_spend` renders the spend decision (`SpendGate.decide`, against a balance read
now): read-only is shown at once; anything else opens ConfirmSpend with the decision's quote,
which asks (y), refuses (Esc closes) or, within the budget, sends without asking. Then
`SpendGate.spend` decides again on a fresh balance, journals, sends with the same key on every
retry; 409s are explained by `error.code`; an overcharge is reported with its request id; the
credits badge follows every balance read. Nothing is ever re-sent under a new key without the
user confirming a new spend.

A confirmed spend is never cancelled by a key: ConfirmSpend stays up saying it is sending
until the server answers (or the client gives up: the intent is then offered as pending), and
`app.spends_in_flight` counts it so that quitting asks first. Callers never run a spend in an
exclusive worker (a second start would cancel the first).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import ApiError, LeadError
from leadtui.api.keys import short_key
from leadtui.api.models import Search
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import (
    Accepted,
    Authorization,
    Decision,
    ReadOnlyProfile,
    SpendRefused,
    Surface,
    Verdict,
)
from leadtui.spend.errors import Code, JournalError, SpendBlocked, SpendOutcomeUnknown
from leadtui.spend.gate import settles_spend
from leadtui.spend.intent import SpendIntent, SpendOperation
from leadtui.spend.quote import Quote, Unit, affordable_results, still_locked
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.frame.handle import AppHandle, app_handle
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.errors import ErrorReport, describe, retold
from leadtui.ui.model.job_board import job_key

if TYPE_CHECKING:
    from textual.app import App


def _show(screen: Screen[Any], report: ErrorReport) -> None:
    show_error = getattr(screen, "show_error", None)
    if callable(show_error):
        show_error(report)
    else:
        app_handle(screen).notify_error(report)


def unlock_request(search: Search, count: int, balance: int | None) -> SpendRequest:
    """Unlocking `count` results of `search`, quoted against `balance` (its key fixed now)."""
    return SpendRequest.for_unlock(Quote.unlock(search, count, balance), search.searchId)


async def decided_quote(screen: Screen[Any], request: SpendRequest) -> Quote | None:
    """The spend decision's quote for `request` (a balance read now, the price that counts:
    stated or observed), for a dialog that shows costs before the spend is settled on; None
    when the spend core cannot be used (said on `screen`). Nothing is sent."""
    app = app_handle(screen)
    try:
        gate = await app.spending()
        decision = await gate.decide(request, app.client, Authorization(Surface.APP))
    except (SpendBlocked, JournalError) as error:
        _show(screen, _blocked(error))
        return None
    _follow_balance(app, decision)
    return decision.quote


@contextmanager
def in_flight(app: AppHandle) -> Iterator[None]:
    """Count a spend the server has not answered yet (quitting asks while there is one)."""
    app.spends_in_flight += 1
    try:
        yield
    finally:
        app.spends_in_flight -= 1


async def confirm_and_spend(screen: Screen[Any], request: SpendRequest) -> SpendResult | None:
    """Ask, journal, send, explain. Returns the result, or None when nothing was bought.

    Call it from a worker (it waits for the modal), never an exclusive one. Every figure shown
    comes from `request.quote`. Errors are shown on `screen` (its error panel when it is a
    LeadScreen, else a toast); none escapes.
    """
    app = app_handle(screen)
    authorization = Authorization(Surface.APP)
    try:
        gate = await app.spending()
        decision = await gate.decide(request, app.client, authorization)
    except (SpendBlocked, JournalError) as error:
        _show(screen, _blocked(error))
        return None
    _follow_balance(app, decision)
    if decision.verdict is Verdict.REFUSE:  # nothing to confirm: said where errors are said
        _show(screen, decision_report(decision))
        return None
    decided: Decision | None = decision
    while True:
        dialog = ConfirmSpend(request, decision)
        await screen.app.push_screen(dialog)
        if not decision.sends:
            if not await dialog.answer:
                if decision.verdict is Verdict.ASK:
                    app.notify("Cancelled: nothing was sent, nothing was spent.", timeout=4)
                return None
            request = dataclasses.replace(request, quote=decision.quote)
            accepted = Accepted(request.request_hash, decision.quote)
            authorization = dataclasses.replace(authorization, confirmed=True, accepted=accepted)
            decided = None  # a person was asked: the price and balance are read again
        try:
            with in_flight(app):
                result = await gate.spend(request, app.client, authorization, decided=decided)
            break
        except SpendRefused as refused:  # decided again before sending: e.g. the balance fell
            if refused.asks_again is not None:
                decision = refused.asks_again  # the price rose after the yes: asked anew
                _follow_balance(app, decision)
                continue
            again = refused.decision
            if again is not None:
                _follow_balance(app, again)
                _show(screen, decision_report(again))
            else:
                _show(screen, _blocked(refused))
            return None
        except (SpendBlocked, JournalError, SpendOutcomeUnknown) as error:
            _not_spent(screen, error)
            return None
        except LeadError as error:
            retry = await _explain_failure(screen, request, error)
            if retry is not None:
                return await confirm_and_spend(screen, retry)
            return None
        finally:
            dialog.finished()
    await _after_spend(screen, result)
    return result


_REFUSAL_TITLES = {
    Code.READ_ONLY: "Spending is switched off",
    Code.INSUFFICIENT_CREDITS: "Not enough credits",
    Code.NO_LAUNCHES_LEFT: "No launches left",
    Code.PENDING_SAME_SPEND: "The same spend is pending",
    Code.IDEMPOTENCY_CONFLICT: "Idempotency key already used",
    Code.OVER_BUDGET: "Over the budget",
    Code.PRICE_UNKNOWN: "Price unknown",
    Code.QUOTE_CHANGED: "The price changed",
}


def decision_report(decision: Decision) -> ErrorReport:
    """A decision that did not send, as the error panel shows it (nothing was sent)."""
    code = decision.code or Code.CONFIRMATION_REQUIRED
    return ErrorReport(_REFUSAL_TITLES.get(code, "Not sent"), decision.message, code=code.value)


def _follow_balance(app: AppHandle, decision: Decision) -> None:
    """The header shows the balance the decision just read."""
    quote = decision.quote
    if quote.unit is Unit.CREDIT and quote.balance is not None:
        app.credits = quote.balance


async def resend_intent(screen: Screen[Any], intent: SpendIntent) -> SpendResult | None:
    """Send a pending intent again with its SAME key (the server debits at most once)."""
    app = app_handle(screen)
    try:
        gate = await app.spending()
        with in_flight(app):
            result = dataclasses.replace(await gate.resend(intent, app.client), replayed=True)
    except (SpendBlocked, JournalError, SpendOutcomeUnknown) as error:
        _not_spent(screen, error)
        return None
    await _after_spend(screen, result)
    return result


async def pending_intents(app: AppHandle) -> list[SpendIntent]:
    """This profile's and server's intents whose outcome was never recorded."""
    if app.session is None:
        return []
    gate = await app.spending()
    return await gate.pending(app.client)


def offer_pending_spends(app: App[Any], *, then: Callable[[], object] = lambda: None) -> None:
    """At start (and after each sign-in): show intents with no outcome, to resend or discard.
    `then` is called once the offer is shown, found nothing, or could not read the journal."""
    if app_handle(app).session is None:
        then()
    else:
        work = partial(_offer_pending, app, then)
        start_worker(app, work, group="pending-spends", exclusive=True)


async def _offer_pending(app: App[Any], then: Callable[[], object]) -> None:
    lead = app_handle(app)
    try:
        intents = await pending_intents(lead)
        unreadable = await asyncio.to_thread((await lead.spending()).journal.unreadable)
    except JournalError as error:
        lead.notify_error(_blocked(error))
        then()
        return
    if unreadable:
        keys = ", ".join(f"{short_key(u.idempotency_key)} ({u.reason})" for u in unreadable)
        app.notify(
            f"The spend journal holds {len(unreadable)} spend(s) this version cannot read, "
            f"left untouched and never sent: {keys}.",
            title="Spend journal",
            severity="warning",
            timeout=10,
            markup=False,
        )
    if intents:
        await lead.show_pending_spends(intents)
    then()


async def _journal_mark(app: AppHandle) -> object:
    gate = await app.spending()
    return await asyncio.to_thread(gate.journal.activity, gate.profile)


async def follow_journal(app: AppHandle) -> bool:
    """Spends journaled or settled since the last look, by any surface (another window, the
    command line, an agent): the balance is read again and the screens that show what a spend
    changes reload. True when there were. The job watcher calls it on every poll."""
    if app.session is None:
        return False
    try:
        mark = await _journal_mark(app)
    except JournalError:
        return False
    seen, app.journal_seen = app.journal_seen, mark
    if seen is None or seen == mark:
        return False
    await _balance_moved(app)
    return True


async def _balance_moved(app: AppHandle) -> None:
    """A spend settled, here or elsewhere: the screens that show what it changed (usage, a
    search's counts) reload and the balance is read again."""
    app.note_spend()
    try:
        await app.refresh_identity()
    except LeadError as error:
        app.notify_error(error)


async def _after_spend(screen: Screen[Any], result: SpendResult) -> None:
    app = app_handle(screen)
    record = result.record
    kind, job_id = job_key(record)
    said = result.debit_text()
    app.notify(
        f"Done: {kind} {job_id} is {record.status} (idempotency key {result.intent.short_key}…)."
        + ("" if said is None else f" {said}"),
        title="Spent",
        timeout=6,
    )
    # The job a spend started is followed wherever the user goes next, so its end is announced.
    app.jobs.absorb(record)
    app.jobs.follow(kind, job_id)
    await _balance_moved(app)
    overcharge = result.overcharge_text()
    if overcharge is not None:  # a toast, kept in History: the screens just reloaded
        report = ErrorReport("Overcharged", overcharge, request_id=record.request_id)
        app.notify_error(report)
    with contextlib.suppress(JournalError):  # this spend is followed already
        app.journal_seen = await _journal_mark(app)


def _blocked(error: SpendBlocked | JournalError) -> ErrorReport:
    if isinstance(error, SpendBlocked):
        code = Code.READ_ONLY if isinstance(error, ReadOnlyProfile) else None
        return ErrorReport(error.title, error.message, code=code)
    return ErrorReport(
        error.title,
        f"{error} Nothing was sent: a spend is only sent once it is written down.",
    )


async def _explain_failure(
    screen: Screen[Any],
    request: SpendRequest,
    error: LeadError,
) -> SpendRequest | None:
    """Show a definitive refusal (the journal has settled the intent as rejected); for
    insufficient_results, return a smaller spend to offer."""
    app = app_handle(screen)
    key = request.short_key
    if isinstance(error, ApiError) and error.code == ErrorCode.INSUFFICIENT_CREDITS:
        balance: int | None = None
        try:
            balance = (await app.refresh_identity()).credits
        except LeadError:
            balance = app.credits
        text = "Nothing was charged."
        if balance is not None and request.amount is not None:
            now = dataclasses.replace(request.quote, balance=balance)
            text = (
                f"This costs {now.total_text()}; the account has {balance:,} — "
                f"{now.shortfall:,} short. Nothing was charged. Buy credits on the service's "
                "account page, or unlock fewer results."
            )
        _show(screen, retold(error, "Not enough credits", text))
        return None
    if isinstance(error, ApiError) and error.code == ErrorCode.INSUFFICIENT_RESULTS:
        return await _insufficient_results(screen, request, error)
    if isinstance(error, ApiError) and error.code == ErrorCode.IDEMPOTENCY_CONFLICT:
        text = (
            f"The server already saw the idempotency key {key}… with a different request, so it "
            "refused this one and charged nothing for it. The app never re-sends a spend under "
            "a new key by itself: start the action again to confirm it with a new key."
        )
        _show(screen, retold(error, "Idempotency key already used", text))
        return None
    _show(screen, describe(error))
    return None


def _not_spent(
    screen: Screen[Any], error: SpendBlocked | JournalError | SpendOutcomeUnknown
) -> None:
    """A spend that stopped: blocked before sending, or sent with no outcome known."""
    if isinstance(error, (SpendBlocked, JournalError)):
        _show(screen, _blocked(error))
    else:
        _outcome_unknown(screen, error)


def _outcome_unknown(screen: Screen[Any], unknown: SpendOutcomeUnknown) -> None:
    """The server may have acted: the intent stays pending, offered to resend or discard."""
    base = describe(unknown.error)
    key = unknown.intent.short_key
    title = f"{base.title}: outcome unknown"
    text = (
        f"{base.text} Whether the spend went through is unknown, so it stays in the journal "
        f"as pending (idempotency key {key}…). Resend it with the same key — the server never "
        "charges a key twice — or discard it."
    )
    if settles_spend(unknown.error):
        # This send was refused (nothing charged for it); an earlier one got no answer.
        title = f"{base.title}: still pending"
        text = (
            f"The server refused this send ({base.title.lower()}) and charged nothing for it. "
            f"An earlier send under the same idempotency key ({key}…) got no answer, so "
            "whether that one went through is not known: the spend stays in the journal as "
            "pending. Resend it with the same key once that is fixed — the server never "
            "charges a key twice — or discard it."
        )
    _show(screen, retold(base, title, text, pending_spend=unknown.intent.idempotency_key))
    offer_pending_spends(screen.app)


async def _insufficient_results(
    screen: Screen[Any], request: SpendRequest, error: ApiError
) -> SpendRequest | None:
    app = app_handle(screen)
    search_id = str(request.params.get("search_id", ""))
    search: Search | None = None
    if request.operation is SpendOperation.UNLOCK and search_id:
        with contextlib.suppress(LeadError):
            search = await app.client.searches.get(search_id)
    available = None if search is None else still_locked(search)
    if available is None:
        text = "The search has fewer results left to unlock than asked. Nothing was charged."
    elif available == 0:
        text = "Every result of this search is already unlocked. Nothing was charged."
    else:
        text = (
            f"Only {available:,} results are left to unlock. Nothing was charged. "
            "The unlock of those is offered next."
        )
    _show(screen, retold(error, "Not enough results", text))
    if search is None or not available:
        return None
    most, _why = affordable_results(search, app.credits, request.quote.price)
    return unlock_request(search, most, app.credits) if most else None
