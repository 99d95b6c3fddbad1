"""Spends built without a search or a balance at hand, as tests need them (a surface always
quotes from the search it read: `SpendRequest.for_unlock(Quote.unlock(search, ...), ...)`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadtui.api.client import LeadClient
from leadtui.api.models import ExtractionRequest
from leadtui.spend.account import SpendAccount
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendIntent, SpendOperation
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest


def unlock(
    search_id: str,
    additional_results: int,
    *,
    price_per_result: object = None,
    balance: int | None = None,
) -> SpendRequest:
    """Unlock at the price given as the server would state it (unusable or None: our default)."""
    quote = Quote.unlock_at(search_id, additional_results, price_per_result, balance)
    return SpendRequest.for_unlock(quote, search_id)


def extraction_create(
    request: ExtractionRequest | Mapping[str, Any], *, launches_left: int | None = None
) -> SpendRequest:
    body = ExtractionRequest.model_validate(request).to_body()
    categories = ", ".join(str(c) for c in body.get("categories", []))
    quote = Quote.launch(SpendOperation.EXTRACTION_CREATE, f"new: {categories}", launches_left)
    return SpendRequest.for_extraction(quote, body)


def extraction_launch(extraction_id: str, *, launches_left: int | None = None) -> SpendRequest:
    quote = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, extraction_id, launches_left)
    return SpendRequest.for_launch(quote, extraction_id)


async def execute(
    gate: SpendGate,
    request: SpendRequest,
    client: LeadClient,
    *,
    confirmed: bool = False,
    surface: Surface = Surface.APP,
) -> SpendResult:
    """`gate.spend` for a caller that asked nobody (or had `confirmed` the quote itself):
    what would be asked is refused."""
    authorization = Authorization(surface, confirmed=confirmed, can_ask=False)
    return await gate.spend(request, client, authorization)


def journal_intent(
    gate: SpendGate,
    request: SpendRequest,
    origin: str,
    account: SpendAccount,
    *,
    claim_owner: str | None = None,
    surface: str = "",
) -> SpendIntent:
    """Step one of a spend alone: the intent journaled as `gate.spend` journals it, nothing
    sent (what a crash right after leaves behind)."""
    return gate.journal.record_intent(
        idempotency_key=request.idempotency_key,
        operation=request.operation,
        params=request.params,
        body=request.body_text,
        amount=request.amount,
        profile=gate.profile,
        origin=origin,
        account=account,
        claim_owner=claim_owner,
        surface=surface,
    )
