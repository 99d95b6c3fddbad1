"""Asking the user on the newest protocol, in process: the question rides in the tool's result
(the SDK's input_required round trip) and the official client answers it; only a yes sends,
once. (Over stdio, the older protocol asks mid-call: see test_spending.py.)"""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import mcp.types as types

from tests.mcp_tools.conftest import SEARCH, error_of, ok


async def _search_and_credits(sandbox_http: httpx.AsyncClient) -> tuple[str, int]:
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    me = (await sandbox_http.get("/api/v1/me", headers=auth)).json()
    return str(search["data"]["searchId"]), int(me["data"]["credits"])


async def _credits(sandbox_http: httpx.AsyncClient) -> int:
    me = await sandbox_http.get("/api/v1/me", headers={"Authorization": "Bearer sk_demo_full"})
    return int(me.json()["data"]["credits"])


async def test_a_yes_in_the_round_trip_sends_once_and_a_no_sends_nothing(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id, credits = await _search_and_credits(sandbox_http)
    answers = ["decline", "accept"]
    questions: list[str] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        questions.append(params.message)
        action = answers.pop(0)
        if action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    arguments = {"search_id": search_id, "results": 6}
    async with in_process(elicitation=user) as client:
        assert client.session.protocol_version >= "2026-07-28"
        declined = error_of(await client.call_tool("unlock_results", arguments))
        assert declined["code"] == "authorization_declined"
        assert await _credits(sandbox_http) == credits
        sent = ok(await client.call_tool("unlock_results", arguments))
    assert sent["decision"]["authorized_by"] == "confirmation"
    assert await _credits(sandbox_http) == credits - 6
    assert len(questions) == 2
    assert "Cost: 6 credits." in questions[-1]


async def test_a_client_that_cannot_ask_gets_authorization_required(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id, credits = await _search_and_credits(sandbox_http)
    async with in_process() as client:
        error = error_of(
            await client.call_tool("unlock_results", {"search_id": search_id, "results": 2})
        )
    assert error["code"] == "authorization_required"
    assert error["quote"]["total"] == 2
    assert await _credits(sandbox_http) == credits


async def test_a_question_left_unanswered_sends_nothing(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id, credits = await _search_and_credits(sandbox_http)
    never = anyio.Event()

    async def away(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        await never.wait()
        raise AssertionError("never answered")

    async with in_process(elicitation=away, legacy=True, ask_seconds=0.2) as client:
        error = error_of(
            await client.call_tool("unlock_results", {"search_id": search_id, "results": 2})
        )
    assert (error["code"], error["answer"]) == ("authorization_declined", "timed_out")
    assert await _credits(sandbox_http) == credits
