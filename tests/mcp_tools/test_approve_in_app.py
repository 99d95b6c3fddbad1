"""`--approve-in-app` in process, on the test's clock, with the app played through the journal rows
it writes: who may opt in, that a client which can ask is still asked itself, the progress told
while waiting, and a quote that went stale quoted again. (The app itself, end to end:
tests/e2e/test_mcp_approve_in_app.py.)"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import mcp.types as types
import pytest

from leadtui.spend.approvals import ApprovalDesk, ApprovalRequest, Progress, Ruling
from leadtui.spend.journal import SpendJournal
from tests.mcp_tools.conftest import SEARCH, Clock, error_of, ok
from tests.support.approval_answers import answer_as_the_app

AUTH = {"Authorization": "Bearer sk_demo_full"}


async def _search(sandbox_http: httpx.AsyncClient) -> str:
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=AUTH)).json()
    return str(search["data"]["searchId"])


async def _credits(sandbox_http: httpx.AsyncClient) -> int:
    return int((await sandbox_http.get("/api/v1/me", headers=AUTH)).json()["data"]["credits"])


def _requests() -> list[ApprovalRequest]:
    return ApprovalDesk(SpendJournal()).listed().requests


def _app_answers(clock: Clock, answer: Callable[[ApprovalRequest], Ruling | None]) -> None:
    """While the server waits (each of its sleeps), the app answers each open request."""
    waits = clock.sleep

    async def sleep(seconds: float) -> None:
        for request in _requests():
            waiting = request.answer is None and request.progress is Progress.WAITING
            verdict = answer(request) if waiting else None
            if verdict is not None:
                answer_as_the_app(ApprovalDesk(SpendJournal()), request, verdict)
        await waits(seconds)

    clock.sleep = sleep  # type: ignore[method-assign]


async def test_the_profile_setting_opts_in_and_the_wait_is_told_as_progress(
    in_process: Any,
    sandbox_http: httpx.AsyncClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[profiles.default]\napprovals = "app"\n')
    monkeypatch.setenv("LEADTUI_CONFIG_FILE", str(config))
    search_id, credits = await _search(sandbox_http), await _credits(sandbox_http)
    told: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        told.append((done, total, message))

    async with in_process() as client:
        result = await client.call_tool(
            "unlock_results", {"search_id": search_id, "results": 3}, progress_callback=progress
        )

    error = error_of(result)
    assert error["code"] == "approval_timeout"
    assert error["quote"]["total"] == 3
    assert "120 s" in error["hint"]
    assert await _credits(sandbox_http) == credits
    [request] = _requests()
    assert request.asker.surface == "agent"
    assert request.answer is not None
    assert request.answer.verdict is Ruling.TIMED_OUT
    # Every 10 s of the 120 s wait, on the server's clock; always growing, never past the total.
    assert [done for done, _, _ in told] == [float(s) for s in range(0, 120, 10)]
    assert {total for _, total, _ in told} == {120.0}
    assert all("Waiting for approval in the running leadtui app" in (m or "") for *_, m in told)


async def test_a_client_that_can_ask_is_asked_itself_not_the_app(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id, credits = await _search(sandbox_http), await _credits(sandbox_http)
    questions: list[str] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        questions.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    async with in_process(elicitation=user, approve_in_app=True) as client:
        sent = ok(await client.call_tool("unlock_results", {"search_id": search_id, "results": 2}))

    assert sent["decision"]["authorized_by"] == "confirmation"
    assert len(questions) == 1
    assert _requests() == []
    assert await _credits(sandbox_http) == credits - 2


async def test_a_stale_quote_is_quoted_again_and_the_approved_one_is_sent_under_the_same_key(
    in_process: Any, sandbox_http: httpx.AsyncClient, clock: Clock
) -> None:
    search_id, credits = await _search(sandbox_http), await _credits(sandbox_http)

    def app(request: ApprovalRequest) -> Ruling:
        # The first quote went stale (the balance moved); the second one is approved.
        return Ruling.STALE if len(_requests()) == 1 else Ruling.APPROVED

    _app_answers(clock, app)
    async with in_process(approve_in_app=True) as client:
        sent = ok(
            await client.call_tool(
                "unlock_results",
                {"search_id": search_id, "results": 4, "idempotency_key": "stale-then-yes"},
            )
        )

    first, second = sorted(_requests(), key=lambda r: r.progress.value != "requoted")
    assert (first.progress.value, second.progress.value) == ("requoted", "sent")
    assert first.idempotency_key == second.idempotency_key == sent["idempotency_key"]
    assert sent["idempotency_key"] == "stale-then-yes"
    assert await _credits(sandbox_http) == credits - 4


async def test_without_opting_in_the_agent_is_told_how_to(
    in_process: Any, sandbox_http: httpx.AsyncClient
) -> None:
    search_id = await _search(sandbox_http)
    async with in_process() as client:
        error = error_of(
            await client.call_tool("unlock_results", {"search_id": search_id, "results": 2})
        )
    assert error["code"] == "authorization_required"
    assert "--approve-in-app" in error["hint"]
    assert _requests() == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_signal_while_waiting_withdraws_the_request_and_is_an_interrupted_error(
    in_process: Any, sandbox_http: httpx.AsyncClient, clock: Clock, signum: int
) -> None:
    search_id, credits = await _search(sandbox_http), await _credits(sandbox_http)
    waits = clock.sleep

    async def sleep(seconds: float) -> None:
        if _requests():  # waiting for the app: the server is told to stop
            os.kill(os.getpid(), signum)
        await waits(seconds)

    clock.sleep = sleep  # type: ignore[method-assign]
    async with in_process(approve_in_app=True) as client:
        error = error_of(
            await client.call_tool("unlock_results", {"search_id": search_id, "results": 2})
        )

    assert error["code"] == "interrupted"
    assert "withdrawn" in error["message"]
    assert error["quote"]["total"] == 2
    [request] = _requests()
    assert request.answer is not None
    assert request.answer.verdict is Ruling.WITHDRAWN
    assert await _credits(sandbox_http) == credits
