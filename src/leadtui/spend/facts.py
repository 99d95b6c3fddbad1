"""What the server says just before a spend decision: the price it states now, the balance and
launches left (GET /me), and whose account the key spends from."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.api.models import Identity
from leadtui.spend.account import SpendAccount
from leadtui.spend.intent import SpendOperation
from leadtui.spend.quote import Quote, Unit
from leadtui.spend.request import SpendRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Read:
    """What the server said just now: the quote at today's price and balance, the account."""

    quote: Quote
    account: SpendAccount


async def fresh_identity(client: LeadClient) -> Identity | None:
    """GET /me now; None when it fails (no usage:read scope, a network fault): the balance is
    then unknown and the quote says so."""
    try:
        return await client.me()
    except LeadError as error:
        log.info("GET /me failed (%s): the balance is unknown", error.title)
        return None


async def read_now(
    request: SpendRequest, client: LeadClient, known: SpendAccount | None = None
) -> Read:
    """The price an unlock's search states now (GET /searches/{id}), then the balance (GET
    /me); `known`, the account found earlier, stands when GET /me fails now."""
    quote = request.quote
    if request.operation is SpendOperation.UNLOCK:
        try:
            search = await client.searches.get(str(request.params["search_id"]))
            quote = quote.with_stated(search.price_per_result)
        except LeadError as error:
            log.info("the search's price could not be read (%s): its quote stands", error.title)
    identity = await fresh_identity(client)
    fresh = SpendAccount.of(identity, client.key_masked)
    account = known if identity is None and known is not None else fresh
    credit = quote.unit is Unit.CREDIT
    balance = None if identity is None else identity.credits if credit else identity.launches_left
    return Read(replace(quote, balance=balance), account)
