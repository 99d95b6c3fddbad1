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
from dataclasses import replace
from datetime import UTC, datetime

from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError, ConfigurationError, LeadError, error_class
from leadtui.api.guidance import INVALID_REQUEST
from leadtui.api.keys import short_key
from leadtui.api.models import Export, Identity
from leadtui.config.settings import SpendPolicy
from leadtui.spend.account import SpendAccount
from leadtui.spend.claims import CLAIM_SECONDS, new_claim_owner
from leadtui.spend.debit import SpendResult, measured_debit, stated_debit
from leadtui.spend.decision import (
    NOTHING_SENT,
    READ_ONLY,
    Accepted,
    Allowance,
    Authorization,
    Budget,
    Decision,
    Facts,
    ReadOnlyProfile,
    judge,
    refusal,
)
from leadtui.spend.errors import (
    IntentClaimed,
    IntentMissing,
    IntentOfAnotherAccount,
    IntentSettled,
    SpendOutcomeUnknown,
)
from leadtui.spend.facts import Read, fresh_identity, read_now
from leadtui.spend.intent import SpendIntent, SpendOperation, SpendOutcome
from leadtui.spend.journal import KeyInJournal, SpendJournal, canonical_body_hash
from leadtui.spend.origin import spend_origin
from leadtui.spend.quote import Unit
from leadtui.spend.request import SpendRequest
from leadtui.spend.sending import dispatch, error_code, journaled_record, may_have_acted, quietly

log = logging.getLogger(__name__)

_CLAIM_POLL_SECONDS = 0.2  # how often a spend looks whether another sender of its key let go

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


class SpendGate:
    """Enforces the spend policy of one profile and journals every spend it sends."""

    def __init__(self, journal: SpendJournal, *, profile: str, policy: SpendPolicy) -> None:
        self.journal = journal
        self.profile = profile
        self.policy = policy
        self._accounts: weakref.WeakKeyDictionary[LeadClient, SpendAccount] = (
            weakref.WeakKeyDictionary()
        )

    def check_allowed(self) -> None:
        """Raise ReadOnlyProfile in read-only mode; a surface may call it to grey out keys."""
        if self.policy.read_only:
            raise ReadOnlyProfile(f"{READ_ONLY} {NOTHING_SENT}")

    async def account_of(self, client: LeadClient) -> SpendAccount:
        """The account `client`'s key spends from (GET /me, remembered once it names one)."""
        return self._accounts.get(client) or self.remember(client, await fresh_identity(client))

    async def decide(
        self, request: SpendRequest, client: LeadClient, authorization: Authorization
    ) -> Decision:
        """Send, ask or refuse, against the price and balance read now (GET /searches/{id}
        for an unlock, GET /me) and what the journal knows. Sends nothing that spends."""
        read = await self._read(request, client)
        return await self._judged(request, client, authorization, read, None)

    async def spend(
        self,
        request: SpendRequest,
        client: LeadClient,
        authorization: Authorization,
        *,
        decided: Decision | None = None,
    ) -> SpendResult:
        """Decide again right before the POST (on a fresh read, unless `decided` is what
        `decide` just gave with nobody asked in between), journal, send with the key, record
        the outcome, measure the debit. What was authorized holds (`authorization.accepted`,
        else the quote confirmed or `decided`'s): a higher price or total sends nothing.

        Raises SpendRefused carrying the Decision unless it says send; JournalError (nothing
        sent); the server's ApiError when it definitively refused; SpendOutcomeUnknown when it
        may have acted (the intent stays pending: offer `resend`). A caller's key naming a
        journaled spend with the same body answers with that spend's outcome."""
        # Spends of the account that settle from here on may move the balance read now.
        since = datetime.now(UTC)
        if decided is None:
            read = await self._read(request, client)
            accepted = authorization.accepted
            if accepted is None and authorization.confirmed:
                accepted = Accepted(request.request_hash, request.quote)
        else:
            read = Read(decided.quote, self.remember(client))
            accepted = authorization.accepted or Accepted(request.request_hash, decided.quote)
        decision = await self._judged(request, client, authorization, read, accepted)
        if not decision.sends:
            raise refusal(decision)
        if decision.replay is not None:
            return await self._replay(decision, decision.replay, client, authorization)
        owner = new_claim_owner()
        try:
            by = decision.authorized_by
            intent = await asyncio.to_thread(
                self.journal.record_intent,
                idempotency_key=request.idempotency_key,
                operation=request.operation,
                params=request.params,
                body=request.body_text,
                amount=decision.quote.credits,  # at the price the decision read
                profile=self.profile,
                origin=client.base_url,
                account=read.account,
                claim_owner=owner,
                surface=authorization.surface.value,
                authorized_by=None if by is None else by.value,
                limits=authorization.limits,
            )
        except KeyInJournal:
            # Another process journaled this key since it was read: its spend is this one.
            again = await self._judged(request, client, authorization, read, accepted)
            if not again.sends:
                raise refusal(again) from None
            if again.replay is None:
                raise
            return await self._replay(again, again.replay, client, authorization)
        sent = await self._send(intent, client, owner, after_unknown=False)
        before = decision.quote.balance
        return await self._measured(replace(sent, decision=decision), client, since, before)

    async def _read(self, request: SpendRequest, client: LeadClient) -> Read:
        read = await read_now(request, client, self._accounts.get(client))
        if read.account.id is not None:
            self._accounts[client] = read.account
        return read

    def remember(self, client: LeadClient, identity: Identity | None = None) -> SpendAccount:
        """The account as last read for `client` (the masked key when none was); `identity`, a
        GET /me just answered to it, is remembered as that read."""
        account = SpendAccount.of(identity, client.key_masked)
        if account.id is not None:
            self._accounts[client] = account
        return self._accounts.get(client, account)

    async def _judged(
        self,
        request: SpendRequest,
        client: LeadClient,
        authorization: Authorization,
        read: Read,
        accepted: Accepted | None,
    ) -> Decision:
        origin, limits = client.base_url, authorization.limits
        facts = await asyncio.to_thread(self._facts, request, read, origin, accepted, limits)
        return judge(facts, authorization)

    def _facts(
        self,
        request: SpendRequest,
        read: Read,
        origin: str,
        accepted: Accepted | None,
        limits: str | None,
    ) -> Facts:
        """What the journal knows of `request`, beside what the server said (`read`)."""
        journal, quote, account = self.journal, read.quote, read.account
        key, body_sha = request.idempotency_key, canonical_body_hash(request.body_text)

        def same_spend(intent: SpendIntent) -> bool:
            return (
                intent.operation is request.operation
                and intent.body_sha256 == body_sha
                and dict(intent.params) == dict(request.params)
            )

        observed = journal.observed_price(origin, account) if quote.unit is Unit.CREDIT else None
        same_key = journal.get(key)
        pending = journal.pending(self.profile, origin, account)
        # Another key for this same spend, pending: sending another could debit twice.
        like = [p for p in pending if same_spend(p) and p.idempotency_key != key]
        spent, policy = journal.budget_spent(self.profile), self.policy
        return Facts(
            quote=quote.with_observed(observed),
            policy=policy,
            budget=Budget(policy.spend_budget, spent, policy.budget_from_env),
            idempotency_key=key,
            pending=like[0] if like else None,
            same_key=same_key,
            same_key_same_body=same_key is not None and same_spend(same_key),
            accepted=accepted,
            spent=Allowance(*journal.spent_under(limits)) if limits is not None else Allowance(),
            request_hash=request.request_hash,
        )

    async def _measured(
        self, result: SpendResult, client: LeadClient, since: datetime, before: int | None
    ) -> SpendResult:
        """The debit: the larger of what the server stated and the balance's fall from
        `before` (other spends of the account since `since` taken off), recorded with the
        journal (it becomes the observed price and counts against every limit)."""
        intent = result.intent
        if intent.operation is not SpendOperation.UNLOCK:
            return result
        measured = None
        identity = None if before is None else await fresh_identity(client)
        if before is not None and identity is not None:
            others = await asyncio.to_thread(self.journal.spent_meanwhile, intent, since)
            measured = measured_debit(before, identity.credits, others, intent.amount or 0)
        known = [d for d in (stated_debit(result.record), measured) if d is not None]
        debited = max(known, default=None)
        if debited is None:
            return result
        key = intent.idempotency_key
        with quietly(key):
            await asyncio.to_thread(self.journal.record_debit, key, debited)
        if debited > (intent.amount or 0):
            log.info(  # every surface reports it to the user in its own words
                "overcharge: intent %s quoted %s credits, debited %s (request %s)",
                short_key(key),
                intent.amount,
                debited,
                result.record.request_id,
            )
        return replace(result, debited=debited, sent_now=bool(measured))

    async def _replay(
        self, decision: Decision, first: SpendIntent, client: LeadClient, auth: Authorization
    ) -> SpendResult:
        """The caller's key was used before with this same request: its outcome (a pending
        one is sent again with the key, once another sender holding it lets go)."""
        waited = 0.0
        while first.pending:
            try:
                resent = await self.resend(first, client, limits=auth.limits)
                return replace(resent, decision=decision, replayed=True)
            except IntentClaimed:
                if waited > CLAIM_SECONDS:
                    raise
                await asyncio.sleep(_CLAIM_POLL_SECONDS)
                waited += _CLAIM_POLL_SECONDS
            except IntentSettled:
                pass  # its sender settled it meanwhile: its outcome is the answer
            now = await asyncio.to_thread(self.journal.get, first.idempotency_key)
            first = first if now is None else now
        detail = first.outcome_detail
        if first.outcome is SpendOutcome.SUCCEEDED:
            record = journaled_record(first)
            return SpendResult(first, record, decision, first.debited, replayed=True)
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
            f"Intent {first.idempotency_key} was discarded; it is not sent again. Nothing was sent."
        )

    async def resend(
        self, intent: SpendIntent, client: LeadClient, *, limits: str | None = None
    ) -> SpendResult:
        """Send a pending intent again with its SAME key (debited at most once), only to the
        profile, server and account it was made for; from now on it counts under `limits`.
        Raises ReadOnlyProfile, an `errors.py` refusal, then as `spend`, except a 4xx never settles
        it (it follows an attempt whose outcome is unknown): SpendOutcomeUnknown."""
        self.check_allowed()
        identity = await fresh_identity(client)  # the balance before, to measure the debit
        account = self.remember(client, identity)
        # The caller's copy may be stale (a second press, another window): ask the journal.
        current = await asyncio.to_thread(self.journal.get, intent.idempotency_key)
        if current is None:
            raise IntentMissing(f"Intent {intent.idempotency_key} is not in the journal.")
        if not current.pending:
            raise IntentSettled(
                f"Intent {current.idempotency_key} is already {current.outcome}; it is not "
                "sent again."
            )
        self._check_belongs(current, client.base_url, account)
        key, owner, since = current.idempotency_key, new_claim_owner(), datetime.now(UTC)
        claimed = await asyncio.to_thread(self.journal.claim, key, owner)
        if limits is not None:
            await asyncio.to_thread(self.journal.count_under, limits, key)
        sent = await self._send(claimed, client, owner, after_unknown=True)
        before = None if identity is None else identity.credits
        return await self._measured(sent, client, since, before)

    async def pending(self, client: LeadClient) -> list[SpendIntent]:
        """This profile's pending intents on `client`'s server and account (never another's)."""
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
                f"Intent {intent.idempotency_key} was made for {where}; it is resent only there "
                f"(signed in: {account.label} at {spend_origin(base_url)}, profile "
                f"'{self.profile}'). Nothing was sent."
            )

    async def _send(
        self, intent: SpendIntent, client: LeadClient, owner: str, *, after_unknown: bool
    ) -> SpendResult:
        journal, key = self.journal, intent.idempotency_key
        try:
            record = await dispatch(intent, client)
        except LeadError as exc:
            tried = len(exc.earlier_attempts) + 1
            unknown = after_unknown or any(may_have_acted(e) for e in exc.earlier_attempts)
            # The client refused to build the request (an id that is no path segment): it was
            # never sent, so the spend is settled as refused rather than left pending.
            unsent = isinstance(exc, ConfigurationError) and not exc.earlier_attempts
            if (unsent or (isinstance(exc, ApiError) and settles_spend(exc))) and not unknown:
                detail: dict[str, object] = {"code": INVALID_REQUEST, "message": exc.message}
                if isinstance(exc, ApiError):
                    detail |= {"status": exc.status, "code": exc.code, "request_id": exc.request_id}
                with quietly(key):
                    await asyncio.to_thread(
                        journal.record_outcome, key, SpendOutcome.REJECTED, detail, attempts=tried
                    )
                raise
            code = error_code(exc)
            with quietly(key):
                await asyncio.to_thread(
                    journal.release, key, owner, attempts=tried, last_error=code
                )
            raise SpendOutcomeUnknown(intent, exc) from exc
        except BaseException:
            # Cancelled mid-send: the outcome is unknown; free the claim so it can be resent.
            with quietly(key):
                journal.release(key, owner, attempts=1, last_error=None)
            raise
        record_id = record.exportId if isinstance(record, Export) else record.extractionId
        done = {
            "id": record_id,
            "status": record.status,
            "request_id": record.request_id,
            "record": record.model_dump(mode="json"),
        }
        with quietly(key):
            outcome = SpendOutcome.SUCCEEDED
            await asyncio.to_thread(journal.record_outcome, key, outcome, done, attempts=1)
        return SpendResult(intent, record)
