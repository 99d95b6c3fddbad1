"""What the decision needs to know, read fresh just before deciding: the balance and launches
left (GET /me), and from the journal the budget spent in 24 hours, the price this account was
observed to pay, a pending identical spend and the spend the caller's key already names."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.api.models import Identity
from leadtui.config.settings import SpendPolicy
from leadtui.spend.account import SpendAccount
from leadtui.spend.decision import Budget, Facts
from leadtui.spend.journal import SpendJournal, canonical_body_hash
from leadtui.spend.quote import Unit
from leadtui.spend.request import SpendRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Gathered:
    facts: Facts
    account: SpendAccount
    identity: Identity | None


async def fresh_identity(client: LeadClient) -> Identity | None:
    """GET /me now; None when it fails (no usage:read scope, a network fault): the balance is
    then unknown and the quote says so."""
    try:
        return await client.me()
    except LeadError as error:
        log.info("GET /me failed (%s): the balance is unknown", error.title)
        return None


async def gather(
    request: SpendRequest,
    client: LeadClient,
    journal: SpendJournal,
    *,
    profile: str,
    policy: SpendPolicy,
    known: SpendAccount | None = None,
) -> Gathered:
    """The facts for `request`. `known`: the account this client's key was found to belong
    to earlier, used when GET /me fails now."""
    identity = await fresh_identity(client)
    if identity is None and known is not None:
        account = known
    else:
        account = SpendAccount.of(identity, client.key_masked)
    quote = request.quote
    if quote.unit is Unit.CREDIT:
        balance = None if identity is None else identity.credits
    else:
        balance = None if identity is None else identity.launches_left
    body_sha = canonical_body_hash(request.body_text)

    def read_journal() -> Facts:
        observed = (
            journal.observed_price(client.base_url, account) if quote.unit is Unit.CREDIT else None
        )
        same_key = journal.get(request.idempotency_key)
        same_body = same_key is not None and (
            same_key.operation is request.operation
            and same_key.body_sha256 == body_sha
            and dict(same_key.params) == dict(request.params)
        )
        pending = journal.pending_like(
            request.operation,
            request.params,
            body_sha,
            profile=profile,
            origin=client.base_url,
            account=account,
        )
        if pending is not None and pending.idempotency_key == request.idempotency_key:
            pending = None  # the caller's own key: a replay, not a second spend
        budget = Budget(policy.spend_budget, journal.budget_spent(profile), policy.budget_from_env)
        return Facts(
            quote=quote.with_balance(balance).with_observed(observed),
            policy=policy,
            budget=budget,
            idempotency_key=request.idempotency_key,
            pending=pending,
            same_key=same_key,
            same_key_same_body=same_body,
            stated_price=quote.stated,
        )

    facts = await asyncio.to_thread(read_journal)
    return Gathered(facts, account, identity)
