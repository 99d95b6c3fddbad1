"""The scenario table's rows about what was authorized against what is sent and debited, on
`leadtui mcp` in process: a price raised after the elicitation's yes, a server that states a
lower debit than it took (a proxy in front of the sandbox) under `--max-credits`, and a spend
whose answer never came, resent under the allowance. Each checks the request log and the
balance."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import mcp.types as types

from leadtui.spend.account import SpendAccount
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import SpendJournal, default_journal_path
from tests.mcp_tools.conftest import SEARCH, error_of, ok
from tests.mcp_tools.test_outcome_unknown import LosesSpendAnswers
from tests.spend.test_authorized_spend import HoldsTheFirstUnlock
from tests.support.lying_proxy import LyingProxy

AUTH = {"Authorization": "Bearer sk_demo_full"}


async def _search(sandbox_http: httpx.AsyncClient) -> str:
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=AUTH)).json()
    return str(search["data"]["searchId"])


async def _credits(sandbox_http: httpx.AsyncClient) -> int:
    return int((await sandbox_http.get("/api/v1/me", headers=AUTH)).json()["data"]["credits"])


async def _unlocks(sandbox_http: httpx.AsyncClient) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


class User:
    """Says yes (or what it is told); after its first yes, the price rises to 50."""

    def __init__(self, sandbox_http: httpx.AsyncClient, *answers: bool) -> None:
        self.http = sandbox_http
        self.answers = list(answers)
        self.questions: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params.message)
        if len(self.questions) == 1:
            await self.http.put("/_sandbox/pricing", json={"stated": 50, "charged": 50})
        return types.ElicitResult(action="accept", content={"confirm": self.answers.pop(0)})


async def test_a_price_raised_after_the_yes_is_asked_again_mid_call(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    user = User(sandbox_http, True, True)
    async with in_process(elicitation=user, legacy=True) as client:
        sent = ok(await client.call_tool("unlock_results", {"search_id": search_id, "results": 3}))
    assert len(user.questions) == 2
    assert "Cost: 3 credits." in user.questions[0]
    assert "Cost: 150 credits." in user.questions[1]
    assert "The price changed after it was authorized" in user.questions[1]
    assert sent["debited"] == 150
    assert len(await _unlocks(sandbox_http)) == 1
    assert await _credits(sandbox_http) == credits - 150


async def test_a_no_to_the_raised_price_sends_nothing(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    user = User(sandbox_http, True, False)
    async with in_process(elicitation=user, legacy=True) as client:
        refused = await client.call_tool("unlock_results", {"search_id": search_id, "results": 3})
    assert error_of(refused)["code"] == "authorization_declined"
    assert await _unlocks(sandbox_http) == []
    assert await _credits(sandbox_http) == credits


async def test_where_the_question_rides_in_results_a_raised_price_is_asked_again(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    user = User(sandbox_http, True, False)
    async with in_process(elicitation=user) as client:
        refused = error_of(
            await client.call_tool("unlock_results", {"search_id": search_id, "results": 3})
        )
    # The round trip quotes again: the yes counted only for the words it answered.
    assert ["Cost: 3 credits." in user.questions[0], "Cost: 150 credits." in user.questions[1]] == [
        True,
        True,
    ]
    assert refused["code"] == "authorization_declined"
    assert refused["quote"]["total"] == 150
    assert await _unlocks(sandbox_http) == []
    assert await _credits(sandbox_http) == credits


async def test_a_server_stating_a_lower_debit_overshoots_the_allowance_once(
    in_process: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 3})
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    proxy = httpx.ASGITransport(app=LyingProxy(sandbox_app, lambda debited: debited // 3))
    async with in_process(transport=proxy, max_credits=10) as client:
        first = await client.call_tool("unlock_results", {"search_id": search_id, "results": 10})
        sent = ok(first)
        (unlock,) = await _unlocks(sandbox_http)
        assert sent["debited"] == 30
        assert sent["overcharge"] == {
            "quoted": 10,
            "debited": 30,
            "request_id": unlock["request_id"],
        }
        assert sent["allowance_left"] == {"credits": 0, "launches": 0}
        stopped = await client.call_tool("unlock_results", {"search_id": search_id, "results": 1})
    assert error_of(stopped)["code"] == "authorization_required"
    assert len(await _unlocks(sandbox_http)) == 1
    assert await _credits(sandbox_http) == credits - 30


async def test_an_unanswered_spend_resent_counts_once_and_its_sender_says_so(
    in_process: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    transport = LosesSpendAnswers(sandbox_app)
    arguments = {"search_id": search_id, "results": 7, "idempotency_key": "agent-resent-1"}
    async with in_process(transport=transport, max_credits=10) as client:
        assert error_of(await client.call_tool("unlock_results", arguments))["code"] == (
            "outcome_unknown"
        )
        transport.losing = False
        again = await client.call_tool("unlock_results", arguments)
        resent = ok(again)
        assert (resent["replayed"], resent["debited"], resent["sent_now"]) == (True, 7, False)
        assert "Debited 7 credits by its first send" in " ".join(
            getattr(block, "text", "") for block in again.content
        )
        assert resent["allowance_left"] == {"credits": 3, "launches": 0}
        over = await client.call_tool("unlock_results", {"search_id": search_id, "results": 5})
    assert error_of(over)["code"] == "authorization_required"
    assert {u["idempotency_key"] for u in await _unlocks(sandbox_http)} == {"agent-resent-1"}
    assert await _credits(sandbox_http) == credits - 7


async def test_a_call_cancelled_mid_post_then_resent_cannot_refill_the_allowance(
    in_process: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    transport = HoldsTheFirstUnlock(sandbox_app)
    arguments = {"search_id": search_id, "results": 7, "idempotency_key": "agent-cancelled-2"}
    async with in_process(transport=transport, max_credits=10) as client:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as calls:
                calls.start_soon(client.call_tool, "unlock_results", arguments)
                await transport.handled.wait()
                calls.cancel_scope.cancel()  # the client gives up: notifications/cancelled
        again = ok(await client.call_tool("unlock_results", arguments))
        assert (again["replayed"], again["debited"]) == (True, 7)
        assert again["allowance_left"] == {"credits": 3, "launches": 0}
        over = await client.call_tool("unlock_results", {"search_id": search_id, "results": 5})
    assert error_of(over)["code"] == "authorization_required"
    assert await _credits(sandbox_http) == credits - 7


async def test_after_the_yes_one_balance_read_before_the_post(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    seen: list[int] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        seen.append(len((await sandbox_http.get("/_sandbox/requests")).json()["data"]))
        return types.ElicitResult(action="accept", content={"confirm": True})

    for legacy in (False, True):
        async with in_process(elicitation=user, legacy=legacy) as client:
            ok(await client.call_tool("unlock_results", {"search_id": search_id, "results": 2}))
        log = (await sandbox_http.get("/_sandbox/requests")).json()["data"][seen[-1] :]
        post = next(i for i, r in enumerate(log) if r["path"].endswith("/exports"))
        reads = [r for r in log[:post] if r["method"] == "GET" and r["path"].endswith("/me")]
        assert len(reads) == 1, (legacy, [r["path"] for r in log[:post]])


async def test_a_resend_that_makes_the_debit_says_sent_now(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    credits = await _credits(sandbox_http)
    # Journaled by an earlier run that died before its POST left.
    SpendJournal(default_journal_path()).record_intent(
        idempotency_key="agent-never-sent-1",
        operation=SpendOperation.UNLOCK,
        params={"search_id": search_id, "additional_results": 7},
        body={"additional_results": 7},
        amount=7,
        profile="default",
        origin="http://127.0.0.1",
        account=SpendAccount("…full", "acct_demo", "Demo Co"),
    )
    arguments = {"search_id": search_id, "results": 7, "idempotency_key": "agent-never-sent-1"}
    async with in_process(max_credits=10) as client:
        resent = await client.call_tool("unlock_results", arguments)
    doc = ok(resent)
    assert (doc["replayed"], doc["sent_now"], doc["debited"]) == (True, True, 7)
    assert "Sent now: 7 credits." in " ".join(getattr(b, "text", "") for b in resent.content)
    assert doc["allowance_left"] == {"credits": 3, "launches": 0}
    assert len(await _unlocks(sandbox_http)) == 1
    assert await _credits(sandbox_http) == credits - 7
