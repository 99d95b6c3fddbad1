"""`SpendRequest`: one spend about to be authorized, built from its Quote.

Its idempotency key (the caller's, or made when it is built, so a confirmation can show it) and
its body text are fixed here once, then journaled and sent byte for byte on every attempt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.keys import idempotency_key_problem, new_idempotency_key, short_key
from leadtui.api.models import ExportRequest, ExtractionRequest, Search
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import canonical_body
from leadtui.spend.quote import Quote, Unit


@dataclass(frozen=True)
class SpendRequest:
    """Built by `for_unlock`, `for_extraction` or `for_launch`. Raises InvalidIdempotencyKey
    for a key that cannot be sent, ValueError for a quote that does not fit the operation."""

    quote: Quote
    params: Mapping[str, Any]
    """What sending (and resending) needs: search id and count, extraction id or body."""
    body: Mapping[str, Any] | None
    idempotency_key: str = field(default_factory=new_idempotency_key)

    def __post_init__(self) -> None:
        problem = idempotency_key_problem(self.idempotency_key)
        if problem is not None:
            raise InvalidIdempotencyKey(f"Not sent: {problem}.")

    @property
    def operation(self) -> SpendOperation:
        return self.quote.operation

    @property
    def amount(self) -> int | None:
        """Credits, or None when the spend is not counted in credits (a launch)."""
        return self.quote.credits

    @property
    def short_key(self) -> str:
        return short_key(self.idempotency_key)

    @property
    def body_text(self) -> str | None:
        """The body exactly as it is journaled and sent (canonical JSON), or None."""
        return None if self.body is None else canonical_body(self.body)

    @property
    def path(self) -> str:
        """The path the POST goes to (under the API prefix), ids as the server receives them."""
        if self.operation is SpendOperation.UNLOCK:
            return f"/searches/{self.params['search_id']}/exports"
        if self.operation is SpendOperation.EXTRACTION_LAUNCH:
            return f"/extractions/{self.params['extraction_id']}/launch"
        return "/extractions"

    @property
    def request_hash(self) -> str:
        """One hash of the whole request (method, path, body): what an authorization names,
        so that a yes given for one target or body can never send another."""
        text = "\n".join(("POST", self.path, self.body_text or ""))
        return hashlib.sha256(text.encode()).hexdigest()

    @classmethod
    def for_unlock(
        cls, quote: Quote, search_id: str, idempotency_key: str | None = None
    ) -> SpendRequest:
        """`POST /searches/{search_id}/exports` for `quote.units` results."""
        if quote.operation is not SpendOperation.UNLOCK or quote.unit is not Unit.CREDIT:
            raise ValueError("an unlock needs an unlock quote, counted in credits")
        body = ExportRequest(additional_results=quote.units).to_body()
        params = {"search_id": search_id, "additional_results": quote.units}
        return cls(quote, params, body, _key(idempotency_key))

    @classmethod
    def for_extraction(
        cls,
        quote: Quote,
        request: ExtractionRequest | Mapping[str, Any],
        idempotency_key: str | None = None,
    ) -> SpendRequest:
        """`POST /extractions`: create and launch in one call (consumes a launch)."""
        if quote.operation is not SpendOperation.EXTRACTION_CREATE:
            raise ValueError("creating an extraction needs an extraction.create quote")
        body = ExtractionRequest.model_validate(request).to_body()
        return cls(quote, {"request": body}, body, _key(idempotency_key))

    @classmethod
    def for_launch(
        cls, quote: Quote, extraction_id: str, idempotency_key: str | None = None
    ) -> SpendRequest:
        """`POST /extractions/{extraction_id}/launch` of a draft (consumes a launch)."""
        if quote.operation is not SpendOperation.EXTRACTION_LAUNCH:
            raise ValueError("launching a draft needs an extraction.launch quote")
        return cls(quote, {"extraction_id": extraction_id}, None, _key(idempotency_key))


# What the command line and the tool server ask for, quoted before any balance is read: the
# decision reads it fresh.


def unlock_request(
    search: Search, search_id: str, results: int, idempotency_key: str | None
) -> SpendRequest:
    """Unlocking `results` more results of `search` (as read from the server), at its price."""
    quote = Quote.unlock(search, results, None)
    return SpendRequest.for_unlock(quote, search_id, idempotency_key)


def extraction_request(body: ExtractionRequest, idempotency_key: str | None) -> SpendRequest:
    target = "a new extraction of " + ", ".join(body.categories)
    quote = Quote.launch(SpendOperation.EXTRACTION_CREATE, target, None)
    return SpendRequest.for_extraction(quote, body, idempotency_key)


def launch_request(extraction_id: str, idempotency_key: str | None) -> SpendRequest:
    quote = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, f"draft {extraction_id}", None)
    return SpendRequest.for_launch(quote, extraction_id, idempotency_key)


def _key(chosen: str | None) -> str:
    return new_idempotency_key() if chosen is None else chosen
