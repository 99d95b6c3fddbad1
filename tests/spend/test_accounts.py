"""A pending spend belongs to the account that made it: it is offered and resent only there.

Idempotency keys are per account: resending A's intent under B's key is a new spend of B's
money (and, for an unlock of A's search, a 404 that used to settle A's charged spend as
rejected)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.models import Identity
from leadtui.spend.account import SpendAccount
from leadtui.spend.errors import IntentOfAnotherAccount, SpendOutcomeUnknown
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.spend.conftest import (
    SEARCH,
    credits,
    faults,
    gate,
    no_sleep,
    spend_attempts,
)
from tests.support import spend_requests

MakeClient = Callable[..., LeadClient]


async def test_a_pending_spend_is_offered_and_resent_only_to_its_account(
    make_client: MakeClient,
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    journal: SpendJournal,
) -> None:
    full = make_client("sk_demo_full", max_retries=0, sleep=no_sleep)
    search = await full.searches.create(SEARCH)
    spender = gate(journal)
    request = spend_requests.unlock(search.searchId, 4)
    await spender.account_of(full)
    # GET /me's fresh read fails (the account is the one found before); the unlock commits
    # and its answer is lost.
    faults(sandbox_app, 1.0, seed=1)
    with pytest.raises(SpendOutcomeUnknown):
        await spend_requests.execute(spender, request, full, confirmed=True)
    faults(sandbox_app, 0.0)
    assert await credits(full) == 10_000 - 4
    [intent] = journal.pending()
    assert intent.account == SpendAccount("…full", "acct_demo", "Demo Co")

    # The same profile, now signed in with another account's key (a new start of the app).
    low = make_client("sk_demo_low")
    after_restart = gate(SpendJournal(journal.path))
    assert await after_restart.pending(low) == []
    with pytest.raises(IntentOfAnotherAccount, match="Demo Co \\(acct_demo\\)") as refused:
        await after_restart.resend(intent, low)
    assert refused.value.title == "Another account's spend"
    assert "Lowball Ltd (acct_low)" in refused.value.message
    # Nothing was sent under B's key, and A's intent is still A's to resend.
    assert len(await spend_attempts(sandbox_http)) == 1
    assert await credits(low) == 5
    assert [i.idempotency_key for i in journal.pending()] == [request.idempotency_key]

    # Another key of the same account may resend it: the account, not the key, owns it.
    [offered] = await after_restart.pending(make_client("sk_demo_full"))
    result = await after_restart.resend(offered, full)
    assert result.record.idempotency_key == request.idempotency_key
    assert await credits(full) == 10_000 - 4
    settled = journal.get(request.idempotency_key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED


async def test_without_get_me_the_masked_key_stands_for_the_account(
    make_client: MakeClient, sandbox_app: Any, journal: SpendJournal
) -> None:
    client = make_client("sk_demo_full", max_retries=0, sleep=no_sleep)
    faults(sandbox_app, 1.0, seed=9)  # GET /me answers 503
    account = await gate(journal).account_of(client)
    faults(sandbox_app, 0.0)
    assert account == SpendAccount(client.key_masked)
    assert account.label == "key …full"
    # Once /me answers, the same key still finds what it journaled without an account id.
    assert account.same_as(await gate(journal).account_of(client))


def test_which_accounts_are_the_same() -> None:
    demo = SpendAccount("…full", "acct_demo", "Demo Co")
    assert demo.same_as(SpendAccount("sk_o…ther", "acct_demo"))  # another key, same account
    assert not demo.same_as(SpendAccount("…full", "acct_low"))  # ids decide when known
    assert demo.same_as(SpendAccount("…full"))  # no id on one side: the key decides
    assert not demo.same_as(SpendAccount("sk_o…ther"))
    # Short keys are masked entirely, so all look alike: they identify nothing.
    assert not SpendAccount("••••••••").same_as(SpendAccount("••••••••"))
    assert not SpendAccount("").same_as(SpendAccount(""))


def test_the_account_is_read_from_get_me_when_it_names_one() -> None:
    def identity(data: dict[str, Any]) -> Identity:
        return Identity.model_validate({"credits": 1, "subscription": {"status": "active"}, **data})

    named = identity({"account": {"id": "acct_1", "name": "One"}})
    assert SpendAccount.of(named, "sk_a…bcde") == SpendAccount("sk_a…bcde", "acct_1", "One")
    assert SpendAccount.of(named, "sk_a…bcde").label == "One (acct_1)"
    assert SpendAccount.of(identity({}), "sk_a…bcde") == SpendAccount("sk_a…bcde")
    unnamed = identity({"account": {"id": "acct_2"}})
    assert SpendAccount.of(unnamed, "x").label == "acct_2"
    assert SpendAccount.of(None, "sk_a…bcde").id is None
