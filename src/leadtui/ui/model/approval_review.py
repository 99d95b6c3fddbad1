"""How the app judges a spend another process asks it to approve. Textual-free.

A request is approvable only for this app's profile, server and account, when the app's own
quote (`SpendGate.decide`: the same decision and price source the asker quoted with, on a balance
read just now) is the one the asker wrote, and when the spend the row describes hashes to the
request hash it names. Anything else is shown for what it is and never approved: stale (the
asker quotes again), another account or server, or changed.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from leadtui.api.models import ExtractionRequest
from leadtui.spend.account import SpendAccount
from leadtui.spend.approvals import ApprovalRequest, Progress, Ruling
from leadtui.spend.intent import SpendOperation
from leadtui.spend.quote import Quote, plural
from leadtui.spend.request import SpendRequest


class Standing(StrEnum):
    """Where a request stands, in the words the Approvals screen shows. Each ruling, and the
    progress SENT and UNKNOWN, has the standing of its name."""

    WAITING = "waiting for you"
    CHECKING = "checking the quote…"
    STALE = "stale: the quote changed"
    ANOTHER_ACCOUNT = "another account"
    ANOTHER_PROFILE = "another profile"
    ANOTHER_SERVER = "another server"
    CHANGED = "refused: the request does not match its spend"
    MISMATCH = "refused: the approval did not match the asker's spend"
    ASKER_GONE = "the asker has stopped (see pending spends)"
    APPROVED = "approved: the asker sends it"
    DENIED = "denied"
    TIMED_OUT = "timed out"
    WITHDRAWN = "withdrawn by the asker"
    SENT = "sent by the asker"
    NOT_SENT = "not sent"
    UNKNOWN = "sent, outcome unknown: see pending spends"


@dataclass(frozen=True)
class Review:
    """A request as the app judges it; `spend` is set only when it may be approved now: the
    asker's spend (its key, its body) at the app's own fresh quote."""

    request: ApprovalRequest
    standing: Standing
    spend: SpendRequest | None = None
    fresh: Quote | None = None

    @property
    def approvable(self) -> bool:
        return self.standing is Standing.WAITING and self.spend is not None

    @property
    def what(self) -> str:
        """`unlock 40 results of srch_1`, `launch draft ext_1`."""
        quote = self.request.quote
        if quote.operation is SpendOperation.UNLOCK:
            return f"unlock {plural(quote.units, 'result')} of {quote.target}"
        return f"launch {quote.target}"

    @property
    def balance(self) -> str:
        """The balance read just now, before → after (the asker's figure until then)."""
        quote = self.fresh or self.request.quote
        unit = quote.unit.value
        if quote.balance is None:
            return "unknown"
        return f"{plural(quote.balance, unit)} → {quote.balance_after or 0:,}"

    @property
    def short_what(self) -> str:
        """`unlock 40 of srch_1`: the table's cell (the detail line says the rest)."""
        quote = self.request.quote
        if quote.operation is SpendOperation.UNLOCK:
            return f"unlock {quote.units:,} of {self.request.params.get('search_id')}"
        return f"launch {quote.target}"


def settled_standing(request: ApprovalRequest) -> Standing | None:
    """The standing of a request that was answered or given up; None while it waits."""
    if request.progress in (Progress.SENT, Progress.UNKNOWN):
        return Standing[request.progress.name]
    if request.progress is Progress.SENDING and request.asker.gone():
        return Standing.ASKER_GONE  # killed after the yes: its journal says what is pending
    if request.progress is Progress.NOT_SENT:
        if request.detail.get("reason") == "mismatch":
            return Standing.MISMATCH  # the asker refused the yes: it named another spend
        if request.answer is None or request.answer.verdict is Ruling.APPROVED:
            return Standing.NOT_SENT
    if request.answer is not None:
        return Standing[request.answer.verdict.name]
    if request.progress is not Progress.WAITING:
        return Standing.WITHDRAWN
    if request.asker.gone():
        return Standing.ASKER_GONE
    return None


def rebuilt_spend(request: ApprovalRequest, quote: Quote) -> SpendRequest:
    """The spend the row describes, at `quote`, with the asker's key. Raises ValueError (or
    pydantic's ValidationError, a ValueError) when the row's spend cannot be built."""
    params: dict[str, Any] = dict(request.params)
    if request.operation is SpendOperation.UNLOCK:
        if params.get("additional_results") != quote.units:
            raise ValueError("the result count is not the quote's")
        spend = SpendRequest.for_unlock(quote, str(params["search_id"]))
    elif request.operation is SpendOperation.EXTRACTION_CREATE:
        spend = SpendRequest.for_extraction(
            quote, ExtractionRequest.model_validate(params["request"])
        )
    else:
        spend = SpendRequest.for_launch(quote, str(params["extraction_id"]))
    return dataclasses.replace(spend, idempotency_key=request.idempotency_key)


def review(
    request: ApprovalRequest,
    *,
    profile: str,
    origin: str,
    account: SpendAccount,
    fresh: Quote | None,
    built: Callable[[ApprovalRequest], SpendRequest],
) -> Review:
    """Judge an open request against this app (`fresh`: the app's quote of the same spend,
    None while it is being read; `built`: the row's spend at its own quote, remembered by a
    screen of a thousand rows)."""
    done = settled_standing(request)
    if done is not None:
        return Review(request, done)
    if request.profile != profile:
        return Review(request, Standing.ANOTHER_PROFILE)
    if request.origin != origin:
        return Review(request, Standing.ANOTHER_SERVER)
    if not request.account.same_as(account):
        return Review(request, Standing.ANOTHER_ACCOUNT)
    asked = request.quote
    try:
        spend = built(request)
    except (ValueError, KeyError, TypeError):
        return Review(request, Standing.CHANGED)
    if spend.request_hash != request.request_hash:
        return Review(request, Standing.CHANGED)
    if fresh is None:
        return Review(request, Standing.CHECKING)
    if fresh.units != asked.units or fresh.operation is not asked.operation:
        return Review(request, Standing.CHANGED, fresh=fresh)
    priced = operator.attrgetter("price", "price_source", "balance", "total")
    if priced(fresh) != priced(asked):
        return Review(request, Standing.STALE, fresh=fresh)
    return Review(request, Standing.WAITING, dataclasses.replace(spend, quote=fresh), fresh)
