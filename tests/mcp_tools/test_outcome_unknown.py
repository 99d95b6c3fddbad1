"""A spend whose answer is lost on the way back: the tool says `outcome_unknown` (never
"failed"), the journal keeps it pending, and the agent's retry with the same key debits once.
The sandbox cannot lose only the answers of spends, so a transport around it does."""

from __future__ import annotations

from typing import Any

import httpx

from tests.mcp_tools.conftest import SEARCH, error_of, ok


class LosesSpendAnswers(httpx.AsyncBaseTransport):
    """The sandbox in process; while `losing`, an unlock is handled and its answer lost."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.losing = True
        self.lost = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if self.losing and request.method == "POST" and request.url.path.endswith("/exports"):
            await response.aread()
            self.lost += 1
            raise httpx.ReadError("the connection dropped before the answer arrived")
        return response


async def _credits(sandbox_http: httpx.AsyncClient) -> int:
    me = await sandbox_http.get("/api/v1/me", headers={"Authorization": "Bearer sk_demo_full"})
    return int(me.json()["data"]["credits"])


async def test_a_lost_answer_is_outcome_unknown_and_the_retry_debits_once(
    in_process: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    arguments = {
        "search_id": search["data"]["searchId"],
        "results": 5,
        "idempotency_key": "agent-lost-1",
    }
    credits = await _credits(sandbox_http)
    transport = LosesSpendAnswers(sandbox_app)
    async with in_process(transport=transport, max_credits=10) as client:
        lost = await client.call_tool("unlock_results", arguments)
        error = error_of(lost)
        assert error["code"] == "outcome_unknown"
        assert error["idempotency_key"] == "agent-lost-1"
        assert transport.lost >= 1
        assert error["message"].startswith("Whether the spend went through is unknown")
        transport.losing = False
        again = ok(await client.call_tool("unlock_results", arguments))
    assert again["replayed"] is True
    assert again["record"]["exportId"]
    # The allowance counted it once, when it may have been spent.
    assert again["allowance_left"] == {"credits": 5, "launches": 0}
    assert await _credits(sandbox_http) == credits - 5


class LosesSearchAnswers(httpx.AsyncBaseTransport):
    """The sandbox in process; a search is created and the answer to its POST lost."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/searches"):
            await response.aread()
            raise httpx.ReadError("the connection dropped before the answer arrived")
        return response


async def test_a_lost_answer_to_create_search_says_it_may_have_gone_through_never_retry(
    in_process: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    async with in_process(transport=LosesSearchAnswers(sandbox_app)) as client:
        error = error_of(await client.call_tool("create_search", {"request": SEARCH}))
    assert error["code"] == "outcome_unknown"
    assert "may have gone through" in error["message"]
    assert error["hint"].startswith("It may have gone through: list_searches shows whether")
    assert "try again" not in error["hint"]
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    # Sent once, never again by itself; the search exists.
    assert [r["method"] for r in log if r["path"].endswith("/searches")] == ["POST"]
