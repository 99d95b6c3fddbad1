"""What the decision needs to know, read fresh just before deciding: from the server the price
it states now and the balance and launches left (GET /me); from the journal the budget spent in
24 hours, what is taken under the authorization's limits, the price this account was observed
to pay, a pending identical spend and the spend the caller's key already names."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.api.models import Identity
from leadtui.config.settings import SpendPolicy
from leadtui.spend.account import SpendAccount
from leadtui.spend.decision import Accepted, Allowance, Budget, Facts
from leadtui.spend.intent import SpendIntent, SpendOperation
from leadtui.spend.journal import SpendJournal, canonical_body_hash
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
    /me). `known`: the account this client's key was found to belong to earlier, used when
    GET /me fails now."""
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
    return Read(quote.with_balance(balance), account)


def read_journal(
    request: SpendRequest,
    read: Read,
    journal: SpendJournal,
    *,
    origin: str,
    profile: str,
    policy: SpendPolicy,
    accepted: Accepted | None = None,
    limits: str | None = None,
) -> Facts:
    """The facts for `request`, from what the server said (`read`) and the journal (blocking:
    call it in a thread)."""
    quote, account = read.quote, read.account
    body_sha = canonical_body_hash(request.body_text)

    def same_spend(intent: SpendIntent) -> bool:
        return (
            intent.operation is request.operation
            and intent.body_sha256 == body_sha
            and dict(intent.params) == dict(request.params)
        )

    observed = journal.observed_price(origin, account) if quote.unit is Unit.CREDIT else None
    same_key = journal.get(request.idempotency_key)
    pending = journal.pending(profile, origin, account)
    # Another key for this same spend, pending: sending another could debit twice.
    like = [p for p in pending if same_spend(p) and p.idempotency_key != request.idempotency_key]
    budget = Budget(policy.spend_budget, journal.budget_spent(profile), policy.budget_from_env)
    return Facts(
        quote=quote.with_observed(observed),
        policy=policy,
        budget=budget,
        idempotency_key=request.idempotency_key,
        pending=like[0] if like else None,
        same_key=same_key,
        same_key_same_body=same_key is not None and same_spend(same_key),
        accepted=accepted,
        spent=Allowance(*journal.spent_under(limits)) if limits is not None else Allowance(),
        request_hash=request.request_hash,
    )
