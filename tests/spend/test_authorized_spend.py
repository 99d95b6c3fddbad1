"""The scenario table's rows about what was authorized against what is sent and debited,
through the spend core itself (the command line, the app and `leadtui mcp` run them too).

The rule every row asserts: credits debited without a fresh yes never exceed what was
authorized, except one overshoot by a server that lies about its debit, which is then
reported and stops further spends under that limit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.decision import (
    Accepted,
    Allowance,
    Authorization,
    ConfirmationRequired,
    SpendRefused,
    Surface,
    Verdict,
)
from leadtui.spend.errors import Code
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import SEARCH, credits, gate, spend_attempts
from tests.support import spend_requests
from tests.support.lying_proxy import LyingProxy

MakeClient = Callable[..., LeadClient]
URL = "http://127.0.0.1"


async def _unlock(client: LeadClient, results: int, key: str | None = None) -> SpendRequest:
    search = await client.searches.create(SEARCH)
    return SpendRequest.for_unlock(Quote.unlock(search, results, None), search.searchId, key)


def _allowance(credits: int) -> Authorization:
    return Authorization(
        Surface.AGENT, allowance=Allowance(credits), can_ask=False, limits="agent/test"
    )


async def test_a_price_raised_after_the_yes_sends_nothing_and_asks_with_both_quotes(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client()
    request = await _unlock(client, 3)
    spender = gate(journal)
    asked = await spender.decide(request, client, Authorization(Surface.APP))
    assert (asked.verdict, asked.quote.total) == (Verdict.ASK, 3)
    before = await credits(client)
    # The user says yes to 3 credits; the price rises to 50 per result before the POST.
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 50, "charged": 50})
    yes = Authorization(
        Surface.APP, confirmed=True, accepted=Accepted(request.request_hash, asked.quote)
    )
    with pytest.raises(ConfirmationRequired) as refused:
        await spender.spend(request, client, yes)
    again = refused.value.decision
    assert again is not None
    assert (again.verdict, again.code) == (Verdict.ASK, Code.QUOTE_CHANGED)
    assert refused.value.asks_again is again
    assert again.accepted is not None
    assert (again.accepted.quote.total, again.quote.total) == (3, 150)
    assert again.to_json()["accepted"]["total"] == 3
    assert "3 credits (1 credit per result) was authorized" in again.message
    assert await spend_attempts(sandbox_http) == []
    assert await credits(client) == before
    # Nobody to ask: refused with the same code and both quotes.
    unattended = Authorization(Surface.CLI, confirmed=True, can_ask=False, accepted=yes.accepted)
    with pytest.raises(SpendRefused) as no_one:
        await spender.spend(request, client, unattended)
    assert no_one.value.decision is not None
    assert (no_one.value.decision.verdict, no_one.value.decision.code) == (
        Verdict.REFUSE,
        Code.QUOTE_CHANGED,
    )
    assert no_one.value.asks_again is None  # refused, not asked: nobody to ask
    # A smaller total than the one accepted goes through.
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 1})
    cheaper = Accepted(request.request_hash, again.quote)
    sent = await spender.spend(request, client, Authorization(Surface.APP, True, accepted=cheaper))
    assert sent.debited == 3
    assert await credits(client) == before - 3


async def test_a_yes_covers_only_the_request_it_was_shown(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client()
    shown = await _unlock(client, 3)
    other = await _unlock(client, 3)  # another search, the same count and total
    yes = Authorization(
        Surface.APP, confirmed=True, accepted=Accepted(shown.request_hash, shown.quote)
    )
    with pytest.raises(SpendRefused) as refused:
        await gate(journal).spend(other, client, yes)
    assert refused.value.decision is not None
    assert refused.value.decision.code is Code.CONFIRMATION_REQUIRED
    assert await spend_attempts(sandbox_http) == []


def _lying_client(sandbox_app: Any) -> tuple[LeadClient, LyingProxy]:
    proxy = LyingProxy(sandbox_app, states=lambda debited: debited // 3)
    transport = httpx.ASGITransport(app=proxy)
    return LeadClient(URL, "sk_demo_full", transport=transport), proxy


@pytest.mark.parametrize("limit", ["allowance", "budget"])
async def test_a_server_stating_a_lower_debit_overshoots_once_and_is_stopped(
    limit: str, sandbox_app: Any, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 3})
    client, proxy = _lying_client(sandbox_app)
    try:
        before = await credits(client)
        if limit == "budget":
            spender = gate(journal, budget=10)
            authorization = Authorization(Surface.CLI, can_ask=False)
        else:
            spender = gate(journal)
            authorization = _allowance(10)
        first = await spender.spend(await _unlock(client, 10), client, authorization)
        assert proxy.rewritten == 1  # the server said 10; it took 30
        assert first.debited == 30
        assert first.overcharge_json() == {
            "quoted": 10,
            "debited": 30,
            "request_id": first.record.request_id,
        }
        if limit == "allowance":
            assert journal.spent_under("agent/test") == (30, 0)
        else:
            assert journal.budget_spent("default") == 30
        # The overshoot stops every further spend under that limit, however small.
        with pytest.raises(SpendRefused) as stopped:
            await spender.spend(await _unlock(client, 1), client, authorization)
        assert stopped.value.decision is not None
        assert stopped.value.decision.code is Code.OVER_BUDGET
        assert len(await spend_attempts(sandbox_http)) == 1
        assert await credits(client) == before - 30
    finally:
        await client.aclose()


class HoldsTheFirstUnlock(httpx.AsyncBaseTransport):
    """The sandbox in process; the first unlock is handled (and debited), then its answer
    waits until the caller is cancelled, as a client's `notifications/cancelled` does."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.handled = asyncio.Event()
        self.held = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if not self.held and request.method == "POST" and request.url.path.endswith("/exports"):
            self.held = True
            await response.aread()
            self.handled.set()
            await asyncio.Event().wait()  # until cancelled
        return response


async def test_a_cancel_mid_post_then_a_resend_counts_once_under_the_allowance(
    sandbox_app: Any, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    transport = HoldsTheFirstUnlock(sandbox_app)
    client = LeadClient(URL, "sk_demo_full", transport=transport)
    try:
        before = await credits(client)
        spender = gate(journal)
        request = await _unlock(client, 7, key="agent-cancelled-1")
        sending = asyncio.create_task(spender.spend(request, client, _allowance(10)))
        await transport.handled.wait()
        sending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sending
        # Pending: it counts at its quote from the moment it was journaled.
        assert journal.spent_under("agent/test") == (7, 0)
        resent = await spender.spend(request, client, _allowance(10))
        assert resent.replayed
        assert resent.debited == 7
        assert not resent.sent_now  # the cancelled send made the debit
        assert resent.debit_text() == "Debited 7 credits by its first send; nothing again."
        assert journal.spent_under("agent/test") == (7, 0)  # once, never zero, never twice
        # 7 of 10 taken: 5 more are over what is left.
        with pytest.raises(SpendRefused) as over:
            await spender.spend(await _unlock(client, 5), client, _allowance(10))
        assert over.value.decision is not None
        assert over.value.decision.code is Code.OVER_BUDGET
        assert await credits(client) == before - 7
    finally:
        await client.aclose()


async def test_a_resend_that_makes_the_debit_says_so(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    client = make_client()
    request = await _unlock(client, 7, key="never-reached-1")
    spender = gate(journal)
    intent = spend_requests.journal_intent(spender, request, URL, await spender.account_of(client))
    before = await credits(client)
    resent = await spender.spend(request, client, _allowance(10))
    assert (resent.replayed, resent.sent_now, resent.debited) == (True, True, 7)
    assert resent.debit_text() == "Sent now: 7 credits."
    assert journal.spent_under("agent/test") == (7, 0)
    assert await credits(client) == before - 7
    assert intent.idempotency_key == "never-reached-1"


async def test_the_same_key_at_once_from_two_journals_answers_the_first_outcome(
    sandbox_app: Any, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    transport = HoldsTheFirstUnlock(sandbox_app)
    first_client = LeadClient(URL, "sk_demo_full", transport=transport)
    second_client = LeadClient(URL, "sk_demo_full", transport=httpx.ASGITransport(sandbox_app))
    try:
        before = await credits(second_client)
        request = await _unlock(first_client, 2, key="race-key-1")
        ceiling = Authorization(Surface.CLI, ceiling=10, can_ask=False)
        first, second = gate(journal), gate(SpendJournal(journal.path))
        # The second decides before the first journals, and journals while it sends.
        decided = await second.decide(request, second_client, ceiling)
        sending = asyncio.create_task(first.spend(request, first_client, ceiling))
        await transport.handled.wait()
        loser = asyncio.create_task(second.spend(request, second_client, ceiling, decided=decided))
        sending.cancel()  # the first's answer is lost: the loser resends under the key
        with pytest.raises(asyncio.CancelledError):
            await sending
        answered = await loser
        assert answered.replayed
        assert answered.intent.idempotency_key == "race-key-1"
        assert answered.debited == 2
        assert await credits(second_client) == before - 2
        posts = await spend_attempts(sandbox_http)
        assert {p["idempotency_key"] for p in posts} == {"race-key-1"}
    finally:
        await first_client.aclose()
        await second_client.aclose()
