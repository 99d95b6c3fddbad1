"""The one path for every credit-consuming call: policy, journal, send, outcome.

The UI builds a `SpendRequest` (its idempotency key exists from then on, so ConfirmSpend can
show its short form), asks `SpendGate.requires_confirmation`, shows the modal, and only then
calls `execute(..., confirmed=True)`. The gate refuses an unconfirmed spend over the budget and
every spend in read-only mode, so no caller can skip the modal by mistake.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from leadtui.api import (
    ApiError,
    Export,
    ExportRequest,
    Extraction,
    ExtractionRequest,
    LeadClient,
    new_idempotency_key,
    short_key,
)
from leadtui.api.contract import DEFAULT_PRICE_PER_RESULT
from leadtui.config.settings import Settings, SpendPolicy
from leadtui.spend.journal import (
    SpendIntent,
    SpendJournal,
    SpendOperation,
    SpendOutcome,
)
from leadtui.spend.quote import stated_price

log = logging.getLogger(__name__)

# 4xx answers that do not settle anything: the same request may still succeed later.
_NOT_DEFINITIVE = frozenset({408, 425, 429})


def settles_spend(error: BaseException) -> bool:
    """True when `error` is a definitive refusal (the journal records the intent as rejected);
    False when the server may or may not have acted (network, timeout, 5xx, 408/425/429)."""
    return (
        isinstance(error, ApiError)
        and 400 <= error.status < 500
        and (error.status not in _NOT_DEFINITIVE)
    )


class SpendBlocked(Exception):
    """Spending is switched off (read-only) or the intent belongs to another account."""


class ConfirmationRequired(Exception):
    """The amount is over the budget (or unknown) and the user has not confirmed it."""


@dataclass(frozen=True)
class SpendRequest:
    """A spend the user is about to confirm. Build it with `unlock`, `extraction_create` or
    `extraction_launch`; the idempotency key is fixed here and used for every attempt."""

    operation: SpendOperation
    params: Mapping[str, Any]
    body: Mapping[str, Any] | None
    amount: int | None
    """Credits, or None when the spend is not priced in credits (then it always needs
    confirming)."""
    idempotency_key: str = field(default_factory=new_idempotency_key)
    price_is_known: bool = True
    """False when `amount` rests on our default price: such a spend always needs confirming."""

    @property
    def short_key(self) -> str:
        return short_key(self.idempotency_key)

    @classmethod
    def unlock(
        cls, search_id: str, additional_results: int, *, price_per_result: int | None = None
    ) -> SpendRequest:
        """`POST /searches/{id}/exports`; costs additional_results × price (default 1)."""
        body = ExportRequest(additional_results=additional_results).to_body()
        price = stated_price(price_per_result)
        return cls(
            SpendOperation.UNLOCK,
            {"search_id": search_id, "additional_results": additional_results},
            body,
            additional_results * (DEFAULT_PRICE_PER_RESULT if price is None else price),
            price_is_known=price is not None,
        )

    @classmethod
    def extraction_create(
        cls, request: ExtractionRequest | Mapping[str, Any], *, amount: int | None = None
    ) -> SpendRequest:
        """`POST /extractions` (consumes a launch; its credit cost is not documented)."""
        body = ExtractionRequest.model_validate(request).to_body()
        return cls(SpendOperation.EXTRACTION_CREATE, {"request": body}, body, amount)

    @classmethod
    def extraction_launch(cls, extraction_id: str, *, amount: int | None = None) -> SpendRequest:
        """`POST /extractions/{id}/launch` of a draft."""
        return cls(SpendOperation.EXTRACTION_LAUNCH, {"extraction_id": extraction_id}, None, amount)


@dataclass(frozen=True)
class SpendResult:
    intent: SpendIntent
    record: Export | Extraction


class SpendGate:
    """Enforces the spend policy of one profile and journals every spend it sends."""

    def __init__(self, journal: SpendJournal, *, profile: str, policy: SpendPolicy) -> None:
        self.journal = journal
        self.profile = profile
        self.policy = policy

    @classmethod
    def for_profile(cls, settings: Settings, journal: SpendJournal, profile: str) -> SpendGate:
        return cls(journal, profile=profile, policy=settings.spend_policy(profile))

    def requires_confirmation(self, request: SpendRequest) -> bool:
        """True unless the amount rests on a price the server stated and is within the budget
        the user set."""
        amount = request.amount
        return amount is None or not request.price_is_known or amount > self.policy.spend_budget

    def check_allowed(self) -> None:
        """Raise SpendBlocked in read-only mode; the UI may call it to grey out spend keys."""
        if self.policy.read_only:
            raise SpendBlocked(
                "Spending is switched off (read_only = true in the settings or this profile). "
                "Nothing was sent."
            )

    async def execute(
        self, request: SpendRequest, client: LeadClient, *, confirmed: bool = False
    ) -> SpendResult:
        """Journal the intent durably, send it with its key, record the outcome.

        Raises SpendBlocked, ConfirmationRequired, JournalError (nothing sent), or the
        client's LeadError. After a transport failure or a 5xx the intent stays pending:
        offer `resend`, never a new request.
        """
        self.check_allowed()
        if not confirmed and self.requires_confirmation(request):
            raise ConfirmationRequired(
                f"This spend ({_amount_text(request.amount)}) is over the budget of "
                f"{self.policy.spend_budget} credits and needs the user's confirmation."
            )
        intent = await asyncio.to_thread(self.journal_intent, request, client.base_url)
        return await self._send(intent, client)

    def journal_intent(self, request: SpendRequest, base_url: str) -> SpendIntent:
        """Step one of `execute`: write the intent durably, before anything is sent. Blocking."""
        return self.journal.record_intent(
            idempotency_key=request.idempotency_key,
            operation=request.operation,
            params=request.params,
            body=request.body,
            amount=request.amount,
            profile=self.profile,
            base_url=base_url,
        )

    async def resend(self, intent: SpendIntent, client: LeadClient) -> SpendResult:
        """Send a pending intent again with its SAME key: the server debits at most once."""
        self.check_allowed()
        # The caller's copy may be stale (a second press, another window): ask the journal.
        current = await asyncio.to_thread(self.journal.get, intent.idempotency_key)
        if current is None:
            raise SpendBlocked(f"Intent {intent.idempotency_key[:8]} is not in the journal.")
        if not current.pending:
            raise SpendBlocked(
                f"Intent {intent.idempotency_key[:8]} is already {current.outcome}; "
                "it is not sent again."
            )
        intent = current
        if intent.profile != self.profile or intent.base_url != client.base_url:
            raise SpendBlocked(
                f"Intent {intent.idempotency_key[:8]} was made for profile '{intent.profile}' "
                f"at {intent.base_url}; switch to that profile to resend it."
            )
        return await self._send(intent, client)

    def pending(self, base_url: str | None = None) -> list[SpendIntent]:
        """This profile's intents whose outcome is unknown (offer resend or discard)."""
        return self.journal.pending(profile=self.profile, base_url=base_url)

    async def _send(self, intent: SpendIntent, client: LeadClient) -> SpendResult:
        try:
            record = await _dispatch(intent, client)
        except ApiError as exc:
            if settles_spend(exc):
                detail = {"status": exc.status, "code": exc.code, "request_id": exc.request_id}
                await self._settle(intent, SpendOutcome.REJECTED, detail)
            raise
        # Anything else (network, timeout, 5xx, cancellation) leaves the intent pending.
        record_id = record.exportId if isinstance(record, Export) else record.extractionId
        await self._settle(
            intent, SpendOutcome.SUCCEEDED, {"id": record_id, "status": record.status}
        )
        return SpendResult(intent, record)

    async def _settle(
        self, intent: SpendIntent, outcome: SpendOutcome, detail: Mapping[str, Any]
    ) -> None:
        try:
            await asyncio.to_thread(
                self.journal.record_outcome, intent.idempotency_key, outcome, detail
            )
        except Exception:
            # The server has answered; a pending intent is safe (a resend cannot debit twice).
            log.warning("could not record the outcome of intent %s", intent.idempotency_key[:8])


async def _dispatch(intent: SpendIntent, client: LeadClient) -> Export | Extraction:
    key, params = intent.idempotency_key, intent.params
    if intent.operation is SpendOperation.UNLOCK:
        return await client.exports.create(
            str(params["search_id"]), int(params["additional_results"]), idempotency_key=key
        )
    if intent.operation is SpendOperation.EXTRACTION_CREATE:
        return await client.extractions.create(dict(params["request"]), idempotency_key=key)
    return await client.extractions.launch(str(params["extraction_id"]), idempotency_key=key)


def _amount_text(amount: int | None) -> str:
    return "cost not stated by the server" if amount is None else f"{amount} credits"
