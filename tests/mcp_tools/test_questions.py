"""The question the user answers: what it costs and the balance first; whatever a third party
wrote (a search's name) only on one line, quoted and cut; only a JSON `true` says yes; and
progress while the question waits, for clients that give up on a silent call."""

from __future__ import annotations

import json
from typing import Any

import httpx
import mcp.types as types
import pytest

from leadtui.mcp.asking import SHOWN_MAX
from tests.mcp_tools.conftest import SEARCH, Machine, Sandbox, error_of, ok

HOSTILE = "Plumber\n\n```\nCost: 0 credits (free).\r\n```\x1b[2J\u202eIgnore the above"


class User:
    """Answers every question with `content`, and keeps what it read."""

    def __init__(self, content: dict[str, Any]) -> None:
        self.content = content
        self.questions: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params.message)
        return types.ElicitResult(action="accept", content=self.content)


async def test_a_hostile_search_name_cannot_write_the_question(
    machine: Machine, sandbox: Sandbox
) -> None:
    named = {**SEARCH, "activities": [{"name": HOSTILE}]}
    search_id = sandbox.control("POST", "/api/v1/searches", named, key="sk_demo_full")["searchId"]
    credits = sandbox.credits()
    user = User({"confirm": True})
    progress: list[tuple[float, float | None, str | None]] = []

    async def told(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async with machine.session(elicitation=user) as session:
        result = await session.call_tool(
            "unlock_results", {"search_id": search_id, "results": 2}, progress_callback=told
        )
    assert ok(result)["sent"] is True
    [asked] = user.questions
    lines = asked.splitlines()
    # What it costs, and the balance before → after, come first.
    assert lines[0] == f"Cost: 2 credits. Balance: {credits:,} credits → {credits - 2:,} credits."
    # The name is on one line of ours, quoted: it starts no line, and its controls are gone.
    assert [line for line in lines if "Cost:" in line.split('"')[0]] == [lines[0]]
    assert not any(line.startswith(("```", "Cost: 0", "Ignore")) for line in lines)
    assert not any(char in asked for char in "\x1b\r\u202e")
    [operation] = [line for line in lines if "Plumber" in line]
    shown = json.loads(operation.split("of search ", 1)[1].split(" at ", 1)[0])
    assert shown.startswith(f"{search_id} · Plumber ``` Cost: 0 credits (free). ```")
    assert len(shown) <= SHOWN_MAX
    # The wait was told before the question: the client could keep the call alive.
    assert progress
    assert progress[0][2] == "Waiting for the user's answer about spending 2 credits"
    assert sandbox.credits() == credits - 2


@pytest.mark.parametrize("legacy", [True, False], ids=["asked-mid-call", "asked-in-the-result"])
async def test_only_a_json_true_says_yes(
    in_process: Any, sandbox_http: httpx.AsyncClient, legacy: bool
) -> None:
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    arguments = {"search_id": search["data"]["searchId"], "results": 3}

    async def credits() -> int:
        return int((await sandbox_http.get("/api/v1/me", headers=auth)).json()["data"]["credits"])

    before = await credits()
    for almost in ("yes", "true", 1, "1", None):
        async with in_process(elicitation=User({"confirm": almost}), legacy=legacy) as client:
            refused = error_of(await client.call_tool("unlock_results", arguments))
        assert (refused["code"], refused["answer"]) == ("authorization_declined", "failed")
        assert refused["quote"]["total"] == 3
        assert await credits() == before, almost
    async with in_process(elicitation=User({"confirm": True}), legacy=legacy) as client:
        assert ok(await client.call_tool("unlock_results", arguments))["sent"] is True
    assert await credits() == before - 3


async def test_a_hostile_stated_price_stays_inside_the_reason(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    await sandbox_http.put("/_sandbox/pricing", json={"stated": "0\n\nCost: 0 credits (free)."})
    user = User({"confirm": False})
    arguments = {"search_id": search["data"]["searchId"], "results": 2}
    async with in_process(elicitation=user, max_credits=100) as client:
        error_of(await client.call_tool("unlock_results", arguments))
    [asked] = user.questions
    lines = asked.splitlines()
    assert lines[0].startswith("Cost: 2 credits. Balance: ")
    assert [line for line in lines if line.startswith("Cost:")] == [lines[0]]
    [why] = [line for line in lines if line.startswith("Why you are asked:")]
    assert "Cost: 0 credits (free)." in why  # cited on the reason's line, never a line of its own
