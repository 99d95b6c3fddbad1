"""A debit is compared with its quote as the server states it, or, when its answer does not
say, as measured from the balance less what other spends of the account took meanwhile: a
spend by another process between the quote and the settle is no overcharge; a real one is."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import SEARCH, gate
from tests.support import spend_requests

MakeClient = Callable[..., LeadClient]
CONFIRMED = Authorization(Surface.CLI, confirmed=True)


class AnotherProcessSpendsFirst(httpx.AsyncBaseTransport):
    """Stands between a client and the sandbox: just before the client's unlock reaches the
    server, another process (its own journal connection, its own client, the same account
    and profile) unlocks `results` results of its own, to the end."""

    def __init__(self, sandbox_app: Any, journal_path: Path, results: int) -> None:
        self.sandbox = httpx.ASGITransport(app=sandbox_app)
        self.other = LeadClient("http://127.0.0.1", "sk_demo_full", transport=self.sandbox)
        self.journal_path = journal_path
        self.results = results
        self.spent: SpendResult | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/exports") and not self.spent:
            unlock = await _unlock(self.other, self.results)
            other_gate = gate(SpendJournal(self.journal_path))
            self.spent = await other_gate.spend(unlock, self.other, CONFIRMED)
        return await self.sandbox.handle_async_request(request)


async def _unlock(client: LeadClient, results: int) -> SpendRequest:
    search = await client.searches.create(SEARCH)
    return SpendRequest.for_unlock(Quote.unlock(search, results, None), search.searchId)


async def _price(sandbox_http: httpx.AsyncClient, **change: Any) -> None:
    (await sandbox_http.put("/_sandbox/pricing", json=change)).raise_for_status()


@pytest.mark.parametrize("stated", [True, False], ids=["debit-stated", "debit-not-stated"])
async def test_a_spend_by_another_process_meanwhile_is_no_overcharge(
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    journal: SpendJournal,
    stated: bool,
) -> None:
    await _price(sandbox_http, omit_debited=not stated)
    between = AnotherProcessSpendsFirst(sandbox_app, journal.path, results=7)
    client = LeadClient("http://127.0.0.1", "sk_demo_full", transport=between)
    request = await _unlock(client, 3)
    result = await gate(journal).spend(request, client, CONFIRMED)
    assert between.spent is not None  # the other process's 7 credits went between
    assert result.decision is not None
    before = result.decision.quote.balance
    assert before is not None
    assert before - (await client.me()).credits == 3 + 7
    assert result.overcharge == 0
    assert result.overcharge_text() is None
    # Stated, the debit is the server's word. Measured, the other spend's own debit is not
    # known either (this one was out while it ran): the fall is not attributed to either, so
    # neither reports an overcharge nor records an observed price.
    debited = 3 if stated else None
    assert result.debited == debited
    journaled = journal.get(request.idempotency_key)
    assert journaled is not None
    assert journaled.debited == debited
    await client.aclose()
    await between.other.aclose()


@pytest.mark.parametrize("stated", [True, False], ids=["debit-stated", "debit-not-stated"])
@pytest.mark.parametrize("meanwhile", [0, 7], ids=["alone", "another-spend-meanwhile"])
async def test_a_real_overcharge_is_still_reported(
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    journal: SpendJournal,
    stated: bool,
    meanwhile: int,
) -> None:
    await _price(sandbox_http, stated=1, charged=4, omit_debited=not stated)
    transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=sandbox_app)
    if meanwhile:
        transport = AnotherProcessSpendsFirst(sandbox_app, journal.path, results=meanwhile)
    client = LeadClient("http://127.0.0.1", "sk_demo_full", transport=transport)
    request = await _unlock(client, 3)
    result = await gate(journal).spend(request, client, CONFIRMED)
    text = result.overcharge_text()
    assert text is not None
    assert str(result.record.request_id) in text
    if stated or not meanwhile:
        assert (result.debited, result.overcharge) == (12, 9)
        assert "debited 12 credits for a spend quoted at 3 credits" in text
    else:
        # Two overcharged spends out together, measured from one balance: each is reported,
        # and what is attributed to them adds up to what the balance lost (3×4 + 7×4).
        assert isinstance(transport, AnotherProcessSpendsFirst)
        assert transport.spent is not None
        assert transport.spent.overcharge > 0
        assert (result.debited or 0) + (transport.spent.debited or 0) == 40
        assert result.overcharge > 0
        await transport.other.aclose()
    await client.aclose()


async def test_a_fall_other_spends_may_explain_is_not_measured(
    make_client: MakeClient, sandbox_http: httpx.AsyncClient, journal: SpendJournal
) -> None:
    """Another sender still holds a spend of the account (its debit unknown): a fall within
    what it may take is neither an overcharge nor an observed price."""
    await _price(sandbox_http, omit_debited=True)
    client = make_client()
    elsewhere = await _unlock(client, 5)
    account = await gate(journal).account_of(client)
    spend_requests.journal_intent(
        gate(journal), elsewhere, client.base_url, account, claim_owner="other-host:1"
    )
    await client.exports.create(str(elsewhere.params["search_id"]), 5)  # it went out meanwhile
    request = await _unlock(client, 3)
    mine = await gate(journal).spend(request, client, CONFIRMED)
    assert (mine.debited, mine.overcharge) == (None, 0)
    journaled = journal.get(request.idempotency_key)
    assert journaled is not None
    assert journaled.debited is None
