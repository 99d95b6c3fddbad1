"""The one spend decision, through the gate against the sandbox: a balance read fresh, a price
that counts only when stated usably or observed, a budget counted over 24 hours from the
journal, a caller's key that replays its first outcome, and a debit compared with its quote."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.api import errors as api_errors
from leadtui.api.client import LeadClient
from leadtui.api.models import Search
from leadtui.config.settings import SpendPolicy
from leadtui.spend import decision as decision_module
from leadtui.spend import errors
from leadtui.spend.decision import Allowance, Authorization, AuthorizedBy, Surface, Verdict
from leadtui.spend.errors import Code
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import PriceSource, Quote
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import SEARCH, credits, faults, gate, no_sleep
from tests.support import spend_requests

MakeClient = Callable[..., LeadClient]
ATTENDED = Authorization(Surface.APP)
UNATTENDED = Authorization(Surface.CLI, can_ask=False)


async def _search(client: LeadClient) -> Search:
    return await client.searches.create(SEARCH)


async def _unlock(client: LeadClient, n: int, **kw: Any) -> SpendRequest:
    search = await client.searches.get((await _search(client)).searchId)
    return SpendRequest.for_unlock(Quote.unlock(search, n, None), search.searchId, **kw)


async def _price(sandbox_http: httpx.AsyncClient, **change: Any) -> None:
    (await sandbox_http.put("/_sandbox/pricing", json=change)).raise_for_status()


async def _posts(sandbox_http: httpx.AsyncClient) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and not r["path"].endswith("/searches")]


async def test_the_balance_is_read_fresh_and_a_short_one_refused_in_the_servers_words(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client("sk_demo_low")  # 5 credits
    request = await _unlock(client, 6)
    decision = await gate(journal).decide(request, client, ATTENDED)
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.INSUFFICIENT_CREDITS)
    assert decision.quote.balance == 5
    assert decision.message == (
        "Unlocking 6 results costs 6 credits; the account has 5. Nothing was sent."
    )
    with pytest.raises(decision_module.SpendRefused) as refused:
        await gate(journal).spend(request, client, Authorization(Surface.APP, confirmed=True))
    assert refused.value.decision is not None
    assert refused.value.decision.code is Code.INSUFFICIENT_CREDITS
    assert await _posts(sandbox_http) == []
    # The server's own 409 says the same words.
    with pytest.raises(api_errors.Conflict) as conflict:
        await client.exports.create(str(request.params["search_id"]), 6)
    assert f"{conflict.value.message} Nothing was sent." == decision.message


@pytest.mark.parametrize(
    "stated", [None, 0, -1, True, "5", 1.5], ids=["missing", "0", "-1", "true", "'5'", "1.5"]
)
async def test_a_price_not_stated_usably_is_asked_or_refused_unattended(
    make_client: MakeClient,
    journal: SpendJournal,
    sandbox_http: httpx.AsyncClient,
    stated: object,
) -> None:
    if stated is None:
        await _price(sandbox_http, omit_stated=True)
    else:
        await _price(sandbox_http, stated=stated)
    client = make_client()
    request = await _unlock(client, 10)
    assert request.quote.price_source is PriceSource.DEFAULT
    roomy = gate(journal, budget=1_000)
    asked = await roomy.decide(request, client, Authorization(Surface.APP, ceiling=100))
    assert (asked.verdict, asked.code) == (Verdict.ASK, Code.PRICE_UNKNOWN)
    refused = await roomy.decide(
        request, client, Authorization(Surface.CLI, ceiling=100, can_ask=False)
    )
    assert (refused.verdict, refused.code) == (Verdict.REFUSE, Code.PRICE_UNKNOWN)
    assert "Nothing was sent." in refused.message
    confirmed = await roomy.decide(request, client, Authorization(Surface.APP, confirmed=True))
    assert confirmed.verdict is Verdict.SEND


async def test_an_overcharge_is_measured_recorded_and_becomes_the_observed_price(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    await _price(sandbox_http, stated=1, charged=5)
    client = make_client()
    request = await _unlock(client, 10)
    spent = await gate(journal).spend(request, client, Authorization(Surface.CLI, ceiling=100))
    assert spent.debited == 50
    assert spent.overcharge == 40
    text = spent.overcharge_text()
    assert text is not None
    assert spent.record.request_id is not None
    assert spent.record.request_id in text
    journaled = journal.get(request.idempotency_key)
    assert journaled is not None
    assert journaled.debited == 50
    # The next quote uses what was really debited: 20 results cost 100, over a ceiling of 99.
    again = await _unlock(client, 20)
    decision = await gate(journal).decide(
        again, client, Authorization(Surface.CLI, ceiling=99, can_ask=False)
    )
    assert decision.quote.price_source is PriceSource.OBSERVED
    assert (decision.verdict, decision.code, decision.quote.total) == (
        Verdict.REFUSE,
        Code.OVER_CEILING,
        100,
    )


async def test_an_observed_price_counts_where_none_is_stated(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    await _price(sandbox_http, omit_stated=True, charged=2)
    client = make_client()
    first = await _unlock(client, 3)
    await gate(journal).spend(first, client, Authorization(Surface.APP, confirmed=True))
    second = await _unlock(client, 4)
    decision = await gate(journal, budget=8).decide(second, client, UNATTENDED)
    assert decision.quote.price == 2
    assert (decision.verdict, decision.authorized_by) == (Verdict.SEND, AuthorizedBy.BUDGET)


async def test_the_budget_counts_every_process_of_the_profile_over_24_hours(
    make_client: MakeClient, journal: SpendJournal, tmp_path: Any
) -> None:
    client = make_client()
    now = [1_800_000_000.0]
    # Two processes: two journals on one file, two gates.
    here = gate(SpendJournal(journal.path, clock=lambda: now[0]), budget=100)
    there = gate(SpendJournal(journal.path, clock=lambda: now[0]), budget=100)
    for _ in range(2):
        sent = await there.spend(await _unlock(client, 40), client, UNATTENDED)
        assert sent.intent.authorized_by == "budget"
    decision = await here.decide(await _unlock(client, 40), client, UNATTENDED)
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.OVER_BUDGET)
    assert decision.budget.to_json() == {
        "spend_budget": 100,
        "spent_24h": 80,
        "left": 20,
        "from_env": False,
    }
    assert "20 credits left of the spend_budget of 100 credits" in decision.message
    now[0] += 24 * 60 * 60 + 1
    later = await here.decide(await _unlock(client, 40), client, UNATTENDED)
    assert (later.verdict, later.budget.left) == (Verdict.SEND, 100)


async def test_a_budget_set_in_the_environment_says_so(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    client = make_client()
    policy = SpendPolicy(spend_budget=3, read_only=False, budget_from_env=True)
    decision = await SpendGate(journal, profile="default", policy=policy).decide(
        await _unlock(client, 5), client, ATTENDED
    )
    assert (decision.verdict, decision.code) == (Verdict.ASK, Code.OVER_BUDGET)
    assert "set in the environment" in decision.message
    assert decision.to_json()["budget"]["from_env"] is True


async def test_the_same_key_returns_the_first_outcome_and_another_body_is_refused(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client()
    search = await _search(client)
    first = SpendRequest.for_unlock(Quote.unlock(search, 2, None), search.searchId, "run-42")
    confirmed = Authorization(Surface.CLI, confirmed=True)
    spent = await gate(journal).spend(first, client, confirmed)
    before = await credits(client)
    # Another process, the same key and request: the first outcome, nothing sent.
    other_process = gate(SpendJournal(journal.path))
    again = SpendRequest.for_unlock(Quote.unlock(search, 2, None), search.searchId, "run-42")
    replayed = await other_process.spend(again, client, confirmed)
    assert replayed.replayed
    assert replayed.record.exportId == spent.record.exportId
    assert await credits(client) == before
    assert len(await _posts(sandbox_http)) == 1
    changed = SpendRequest.for_unlock(Quote.unlock(search, 3, None), search.searchId, "run-42")
    decision = await other_process.decide(changed, client, confirmed)
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.IDEMPOTENCY_CONFLICT)
    with pytest.raises(decision_module.SpendRefused):
        await other_process.spend(changed, client, confirmed)
    assert len(await _posts(sandbox_http)) == 1


async def test_a_spend_identical_to_a_pending_one_is_refused_naming_its_key(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client()
    first = await _unlock(client, 2)
    account = await gate(journal).account_of(client)
    spend_requests.journal_intent(
        gate(journal), first, client.base_url, account
    )  # journaled, never answered
    second = SpendRequest.for_unlock(first.quote, str(first.params["search_id"]))
    decision = await gate(journal).decide(second, client, Authorization(Surface.APP, True))
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.PENDING_SAME_SPEND)
    assert decision.pending_key == first.idempotency_key
    assert f"leadtui pending resend {first.idempotency_key}" in decision.message
    assert await _posts(sandbox_http) == []


async def test_the_journaled_body_is_the_sent_body_byte_for_byte(
    make_client: MakeClient,
    journal: SpendJournal,
    sandbox_http: httpx.AsyncClient,
    sandbox_app: Any,
) -> None:

    client = make_client(sleep=no_sleep)
    request = await _unlock(client, 2)
    faults(sandbox_app, 1.0, seed=3)  # every attempt fails: retried, then left pending
    with pytest.raises(errors.SpendOutcomeUnknown) as unknown:
        await gate(journal).spend(request, client, Authorization(Surface.APP, True))
    faults(sandbox_app, 0.0)
    await gate(journal).resend(unknown.value.intent, client)
    journaled = journal.get(request.idempotency_key)
    assert journaled is not None
    assert journaled.body == '{"additional_results":2}'
    key = journaled.idempotency_key
    # A 503 is answered before the body is read; every attempt whose body arrived is logged.
    bodies = [r["body"] for r in await _posts(sandbox_http) if r["idempotency_key"] == key]
    assert len([b for b in bodies if b is not None]) >= 2
    assert {b for b in bodies if b is not None} == {journaled.body}


async def test_launches_left_come_from_the_model_and_none_left_is_refused(
    make_client: MakeClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    client = make_client()
    await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"extraction_quota": 0})
    assert (await client.me()).launches_left == 0
    request = spend_requests.extraction_launch("ext_1")
    decision = await gate(journal).decide(request, client, Authorization(Surface.APP, True))
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.NO_LAUNCHES_LEFT)


async def test_launches_need_a_yes_a_ceiling_or_an_allowance(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    client = make_client()
    request = spend_requests.extraction_launch("ext_1")
    the_gate = gate(journal, budget=10_000)  # a credit budget never covers a launch
    asked = await the_gate.decide(request, client, ATTENDED)
    assert (asked.verdict, asked.code) == (Verdict.ASK, Code.CONFIRMATION_REQUIRED)
    over = await the_gate.decide(request, client, Authorization(Surface.CLI, launch_ceiling=0))
    assert (over.verdict, over.code) == (Verdict.REFUSE, Code.OVER_CEILING)
    within = await the_gate.decide(request, client, Authorization(Surface.CLI, launch_ceiling=1))
    assert (within.verdict, within.authorized_by) == (Verdict.SEND, AuthorizedBy.MAX_LAUNCHES)
    agent = Authorization(Surface.AGENT, allowance=Allowance(launches=1), can_ask=False)
    assert (await the_gate.decide(request, client, agent)).verdict is Verdict.SEND
    spent = Authorization(Surface.AGENT, allowance=Allowance(launches=0), can_ask=False)
    refused = await the_gate.decide(request, client, spent)
    assert (refused.verdict, refused.code) == (Verdict.REFUSE, Code.OVER_BUDGET)


async def test_every_spend_is_journaled_with_its_surface(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    client = make_client()
    for surface in Surface:
        request = await _unlock(client, 1)
        spent = await gate(journal).spend(request, client, Authorization(surface, True))
        assert spent.intent.surface == surface.value
    assert [i.surface for i in journal.history()] == ["agent", "cli", "app"]


async def test_read_only_refuses_first(make_client: MakeClient, journal: SpendJournal) -> None:
    client = make_client()
    decision = await gate(journal, read_only=True).decide(
        await _unlock(client, 1), client, Authorization(Surface.APP, True)
    )
    assert (decision.verdict, decision.code) == (Verdict.REFUSE, Code.READ_ONLY)
    assert decision.message.count("Nothing was sent.") == 1
    assert decision.to_json()["verdict"] == "refuse"


def test_the_spend_core_imports_no_surface() -> None:
    import subprocess
    import sys

    script = (
        "import pkgutil, importlib, sys, leadtui.spend as s\n"
        "for m in pkgutil.iter_modules(s.__path__):\n"
        "    importlib.import_module(f'leadtui.spend.{m.name}')\n"
        "bad = ('textual', 'mcp', 'leadtui.ui', 'leadtui.cli', 'leadtui.mcp')\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in bad or n.startswith(bad[2:])))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
