"""The one path for every credit-consuming call: decision, journal, send, outcome.

A surface builds a `SpendRequest` from a Quote (its idempotency key exists from then on, so the
confirmation can show its short form), asks `decide` with what it brings (`Authorization`),
renders the decision, and calls `spend`, which decides again on a fresh balance before it
journals and sends: no caller can skip a confirmation, a ceiling or the budget by mistake.

Once any attempt of a spend may have been acted on (a transport failure, a timeout, a 5xx), no
later 4xx settles it as rejected: the server may hold the money under that key while refusing
the retry (a lapsed subscription, a revoked key). It stays pending; a resend of a pending
intent is such a later attempt by definition.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError, LeadError, RequestTimeout, error_class
from leadtui.api.guidance import NETWORK, TIMEOUT
from leadtui.api.keys import short_key
from leadtui.api.models import Export, Extraction
from leadtui.config.settings import Settings, SpendPolicy
from leadtui.spend.account import SpendAccount, account_of
from leadtui.spend.debit import measured_debit, stated_debit
from leadtui.spend.decision import Authorization, AuthorizedBy, Decision, Surface, judge
from leadtui.spend.errors import (
    IntentMissing,
    IntentOfAnotherAccount,
    IntentSettled,
    SpendOutcomeUnknown,
    refusal,
)
from leadtui.spend.facts import Gathered, fresh_identity, gather
from leadtui.spend.journal import (
    SpendIntent,
    SpendJournal,
    SpendOperation,
    SpendOutcome,
    new_claim_owner,
)
from leadtui.spend.origin import spend_origin
from leadtui.spend.policy import check_spend_allowed
from leadtui.spend.quote import plural
from leadtui.spend.request import SpendRequest

__all__ = ["SpendGate", "SpendRequest", "SpendResult", "settles_spend"]

log = logging.getLogger(__name__)

# 4xx answers that do not settle anything: the same request may still succeed later.
_NOT_DEFINITIVE = frozenset({408, 425, 429})


def settles_spend(error: BaseException) -> bool:
    """True when `error`, as the answer to a first send, is a definitive refusal; False when
    the server may or may not have acted (network, timeout, 5xx, 408/425/429)."""
    return (
        isinstance(error, ApiError)
        and 400 <= error.status < 500
        and (error.status not in _NOT_DEFINITIVE)
    )


def _may_have_acted(error: LeadError) -> bool:
    """A failure after which the server may hold the spend: no answer, a timeout, a 5xx, or a
    success whose body could not be read. (429 and 425 are refusals before any work.)"""
    if not isinstance(error, ApiError):
        return True
    return not 400 <= error.status < 500 or error.status == 408


def _error_code(error: LeadError) -> str:
    if isinstance(error, ApiError):
        return error.code
    return TIMEOUT if isinstance(error, RequestTimeout) else NETWORK


@dataclass(frozen=True)
class SpendResult:
    intent: SpendIntent
    record: Export | Extraction
    decision: Decision | None = None
    """The decision that let it out (None: a resend of a pending spend)."""
    debited: int | None = None
    """Credits it debited, as the server stated or as measured from the balance (None: not
    known; see spend/debit.py)."""
    replayed: bool = False
    """The caller's key named a spend already journaled: this is its first outcome."""

    @property
    def overcharge(self) -> int:
        """Credits debited above the quote (0: none, or not measured)."""
        quoted = self.intent.amount
        if self.debited is None or quoted is None:
            return 0
        return max(0, self.debited - quoted)

    def overcharge_text(self) -> str | None:
        """What every surface reports when the server took more than it quoted."""
        if not self.overcharge:
            return None
        request_id = self.record.request_id or "unknown"
        return (
            f"Overcharged: the server debited {plural(self.debited or 0, 'credit')} for a spend "
            f"quoted at {plural(self.intent.amount or 0, 'credit')} ({self.overcharge:,} more; "
            f"request {request_id}, idempotency key {self.intent.idempotency_key}). It is "
            "recorded, and this account's observed price is what it was really debited."
        )


class SpendGate:
    """Enforces the spend policy of one profile and journals every spend it sends."""

    def __init__(self, journal: SpendJournal, *, profile: str, policy: SpendPolicy) -> None:
        self.journal = journal
        self.profile = profile
        self.policy = policy
        self._accounts: weakref.WeakKeyDictionary[LeadClient, SpendAccount] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def for_profile(cls, settings: Settings, journal: SpendJournal, profile: str) -> SpendGate:
        return cls(journal, profile=profile, policy=settings.spend_policy(profile))

    def check_allowed(self) -> None:
        """Raise ReadOnlyProfile in read-only mode; a surface may call it to grey out keys."""
        check_spend_allowed(self.policy)

    async def account_of(self, client: LeadClient) -> SpendAccount:
        """The account `client`'s key spends from (GET /me, remembered per client once it
        names the account; the masked key when it does not)."""
        known = self._accounts.get(client)
        if known is None:
            known = await account_of(client)
            if known.id is not None:
                self._accounts[client] = known
        return known

    async def decide(
        self, request: SpendRequest, client: LeadClient, authorization: Authorization
    ) -> Decision:
        """Send, ask or refuse, against a balance read now and what the journal knows.
        Sends nothing that spends (it reads GET /me)."""
        gathered = await self._gather(request, client)
        return judge(gathered.facts, authorization)

    async def spend(
        self, request: SpendRequest, client: LeadClient, authorization: Authorization
    ) -> SpendResult:
        """Decide again (fresh balance), then journal durably, send with the key, record the
        outcome and measure the debit.

        Raises SpendRefused (or ReadOnlyProfile, ConfirmationRequired: its kinds) carrying the
        Decision unless it says send; JournalError (nothing sent); the server's ApiError when
        it definitively refused (journaled as rejected); SpendOutcomeUnknown when it may have
        acted (the intent stays pending: offer `resend`, never a new request). The caller's
        key naming a journaled spend with the same body returns that spend's first outcome.
        """
        # Spends of the account that settle from here on may move the balance read now.
        since = datetime.now(UTC)
        gathered = await self._gather(request, client)
        decision = judge(gathered.facts, authorization)
        if not decision.sends:
            raise refusal(decision)
        if decision.replay is not None:
            return await self._replay(decision, decision.replay, client)
        priced = replace(request, quote=decision.quote)
        owner = new_claim_owner()
        intent = await asyncio.to_thread(
            self.journal_intent,
            priced,
            client.base_url,
            gathered.account,
            claim_owner=owner,
            surface=authorization.surface,
            authorized_by=decision.authorized_by,
        )
        sent = await self._send(intent, client, owner, after_unknown=False)
        return await self._measured(replace(sent, decision=decision), client, since)

    async def _gather(self, request: SpendRequest, client: LeadClient) -> Gathered:
        gathered = await gather(
            request,
            client,
            self.journal,
            profile=self.profile,
            policy=self.policy,
            known=self._accounts.get(client),
        )
        if gathered.account.id is not None:
            self._accounts[client] = gathered.account
        return gathered

    async def _measured(
        self, result: SpendResult, client: LeadClient, since: datetime
    ) -> SpendResult:
        """The debit, as the server stated it or measured from the balance (other spends of
        the account since `since` taken off), recorded with the journal (it becomes the
        observed price); compared with the quote by `overcharge`."""
        intent, decision = result.intent, result.decision
        if intent.operation is not SpendOperation.UNLOCK:
            return result
        debited = stated_debit(result.record)
        if debited is None:
            before = None if decision is None else decision.quote.balance
            identity = None if before is None else await fresh_identity(client)
            if before is None or identity is None:
                return result
            others = await asyncio.to_thread(self.journal.spent_meanwhile, intent, since)
            debited = measured_debit(before, identity.credits, others, intent.amount or 0)
            if debited is None:
                return result
        key = intent.idempotency_key
        await asyncio.to_thread(_quietly, key, lambda: self.journal.record_debit(key, debited))
        if debited > (result.intent.amount or 0):
            log.info(  # every surface reports it to the user in its own words
                "overcharge: intent %s quoted %s credits, debited %s (request %s)",
                short_key(key),
                result.intent.amount,
                debited,
                result.record.request_id,
            )
        return replace(result, debited=debited)

    async def _replay(
        self, decision: Decision, first: SpendIntent, client: LeadClient
    ) -> SpendResult:
        """The caller's key was used before with this same request: its first outcome."""
        if first.pending:
            resent = await self.resend(first, client)
            return replace(resent, decision=decision, replayed=True)
        detail = first.outcome_detail
        if first.outcome is SpendOutcome.SUCCEEDED:
            return SpendResult(first, _journaled_record(first), decision, first.debited, True)
        if first.outcome is SpendOutcome.REJECTED:
            status = detail.get("status")
            status = status if isinstance(status, int) else 409
            raise error_class(status)(
                status,
                str(detail.get("code") or "rejected"),
                str(detail.get("message") or "The server refused this spend the first time."),
                detail.get("request_id") if isinstance(detail.get("request_id"), str) else None,
                idempotency_key=first.idempotency_key,
            )
        raise IntentSettled(
            f"Intent {first.short_key} was discarded; it is not sent again. Nothing was sent."
        )

    async def execute(
        self,
        request: SpendRequest,
        client: LeadClient,
        *,
        confirmed: bool = False,
        surface: Surface = Surface.APP,
    ) -> SpendResult:
        """`spend` for a caller that asked nobody (or had `confirmed` the quote itself):
        what would be asked is refused. Raises as `spend`."""
        authorization = Authorization(surface, confirmed=confirmed, can_ask=False)
        return await self.spend(request, client, authorization)

    def journal_intent(
        self,
        request: SpendRequest,
        base_url: str,
        account: SpendAccount,
        *,
        claim_owner: str | None = None,
        surface: Surface | None = None,
        authorized_by: AuthorizedBy | None = None,
    ) -> SpendIntent:
        """Step one of a spend: write the intent durably, before anything is sent. Blocking."""
        return self.journal.record_intent(
            idempotency_key=request.idempotency_key,
            operation=request.operation,
            params=request.params,
            body=request.body_text,
            amount=request.amount,
            profile=self.profile,
            origin=base_url,
            account=account,
            claim_owner=claim_owner,
            surface="" if surface is None else surface.value,
            authorized_by=None if authorized_by is None else authorized_by.value,
        )

    async def resend(self, intent: SpendIntent, client: LeadClient) -> SpendResult:
        """Send a pending intent again with its SAME key: the server debits at most once.

        Only to the profile, server and account it was made for. Raises ReadOnlyProfile,
        IntentMissing, IntentSettled, IntentOfAnotherAccount, IntentClaimed, JournalError;
        then as `execute`, except that a 4xx never settles it (it follows an attempt whose
        outcome is unknown) and raises SpendOutcomeUnknown.
        """
        self.check_allowed()
        account = await self.account_of(client)
        # The caller's copy may be stale (a second press, another window): ask the journal.
        current = await asyncio.to_thread(self.journal.get, intent.idempotency_key)
        if current is None:
            raise IntentMissing(f"Intent {intent.short_key} is not in the journal.")
        if not current.pending:
            raise IntentSettled(
                f"Intent {current.short_key} is already {current.outcome}; it is not sent again."
            )
        self._check_belongs(current, client.base_url, account)
        owner = new_claim_owner()
        claimed = await asyncio.to_thread(self.journal.claim, current.idempotency_key, owner)
        return await self._send(claimed, client, owner, after_unknown=True)

    async def pending(self, client: LeadClient) -> list[SpendIntent]:
        """This profile's intents on `client`'s server and account whose outcome is unknown
        (offer resend or discard). Intents of other accounts are never offered."""
        account = await self.account_of(client)
        return await asyncio.to_thread(self.journal.pending, self.profile, client.base_url, account)

    def _check_belongs(self, intent: SpendIntent, base_url: str, account: SpendAccount) -> None:
        where = None
        if intent.profile != self.profile:
            where = f"profile '{intent.profile}'"
        elif intent.origin != spend_origin(base_url):
            where = f"the server {intent.origin}"
        elif not intent.account.same_as(account):
            where = f"the account {intent.account.label}"
        if where is not None:
            raise IntentOfAnotherAccount(
                f"Intent {intent.short_key} was made for {where}; it is resent only there "
                f"(signed in: {account.label} at {spend_origin(base_url)}, profile "
                f"'{self.profile}'). Nothing was sent."
            )

    async def _send(
        self, intent: SpendIntent, client: LeadClient, owner: str, *, after_unknown: bool
    ) -> SpendResult:
        journal, key = self.journal, intent.idempotency_key
        try:
            record = await _dispatch(intent, client)
        except LeadError as exc:
            tried = len(exc.earlier_attempts) + 1
            unknown = after_unknown or any(_may_have_acted(e) for e in exc.earlier_attempts)
            if isinstance(exc, ApiError) and settles_spend(exc) and not unknown:
                detail = {
                    "status": exc.status,
                    "code": exc.code,
                    "message": exc.message,
                    "request_id": exc.request_id,
                }
                await asyncio.to_thread(
                    _quietly,
                    key,
                    lambda: journal.record_outcome(
                        key, SpendOutcome.REJECTED, detail, attempts=tried
                    ),
                )
                raise
            code = _error_code(exc)
            await asyncio.to_thread(
                _quietly,
                key,
                lambda: journal.release(key, owner, attempts=tried, last_error=code),
            )
            raise SpendOutcomeUnknown(intent, exc) from exc
        except BaseException:
            # Cancelled mid-send: the outcome is unknown; free the claim so it can be resent.
            _quietly(key, lambda: journal.release(key, owner, attempts=1, last_error=None))
            raise
        record_id = record.exportId if isinstance(record, Export) else record.extractionId
        done = {
            "id": record_id,
            "status": record.status,
            "request_id": record.request_id,
            "record": record.model_dump(mode="json"),
        }
        await asyncio.to_thread(
            _quietly,
            key,
            lambda: journal.record_outcome(key, SpendOutcome.SUCCEEDED, done, attempts=1),
        )
        return SpendResult(intent, record)


def _quietly(key: str, write: Callable[[], None]) -> None:
    """Record what the server answered (or that it did not). A journal failure here is logged,
    not raised over the server's answer: the intent stays pending, and a resend with its key
    cannot debit twice."""
    try:
        write()
    except Exception:
        log.warning("could not record the outcome of intent %s", short_key(key))


def _journaled_record(intent: SpendIntent) -> Export | Extraction:
    """The record a settled spend's server answer held, as the journal kept it."""
    detail = intent.outcome_detail
    kept = detail.get("record")
    if intent.operation is SpendOperation.UNLOCK:
        if isinstance(kept, dict):
            return Export.model_validate(kept)
        return Export(exportId=str(detail.get("id")), status=str(detail.get("status")))
    if isinstance(kept, dict):
        return Extraction.model_validate(kept)
    return Extraction(extractionId=str(detail.get("id")), status=str(detail.get("status")))


async def _dispatch(intent: SpendIntent, client: LeadClient) -> Export | Extraction:
    """Send the intent as journaled: its body text, byte for byte, with its key. (A row an
    earlier version wrote kept no body: it is rebuilt from its params as that version did.)"""
    key, params = intent.idempotency_key, intent.params
    body = None if intent.body is None else intent.body.encode()
    if intent.operation is SpendOperation.UNLOCK:
        return await client.exports.create(
            str(params["search_id"]),
            int(params["additional_results"]),
            idempotency_key=key,
            raw_body=body,
        )
    if intent.operation is SpendOperation.EXTRACTION_CREATE:
        return await client.extractions.create(
            dict(params["request"]), idempotency_key=key, raw_body=body
        )
    return await client.extractions.launch(str(params["extraction_id"]), idempotency_key=key)
