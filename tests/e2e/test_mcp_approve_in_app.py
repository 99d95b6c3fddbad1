"""End to end: an agent whose client cannot ask its user (no elicitation callback) calls a
spending tool of `leadtui mcp --approve-in-app`, a process of its own over stdio, against a
`leadtui sandbox` process; the app (Pilot) on the same machine shows the request naming the
agent and answers it. Only the tool server sends, once, and only after a yes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.types import CallToolResult, Implementation
from tests.e2e.sandbox_process import sandbox_process
from tests.mcp_tools.conftest import Machine, Sandbox, error_of, ok
from tests.support.approvals_app import open_request, over_socket
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until

from leadtui.spend.approval_records import Answer, ApprovalRequest, Party, Verdict
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.screens.approvals import ApprovalsScreen

pytestmark = pytest.mark.timeout(180)

AGENT = Implementation(name="test-agent", version="1.2.3")
RESULTS = 5
# The tool server's start (the SDK loads) and its first quote, on a loaded machine.
ASKING_SECONDS = 60.0


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with sandbox_process("--job-seconds", "0.3") as base_url:
        yield Sandbox(base_url)


@pytest.fixture(scope="module")
def slow_sandbox() -> Iterator[Sandbox]:
    """Every request takes a while: an approved spend is in flight long enough to be killed."""
    with sandbox_process("--latency-ms", "700") as base_url:
        yield Sandbox(base_url)


def sharing(tmp_path: Path, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """A machine whose config and state (journal, approvals) the tool server and the app in
    this process share."""
    machine = Machine(tmp_path, sandbox)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return machine


@pytest.fixture
def machine(tmp_path: Path, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Machine:
    return sharing(tmp_path, sandbox, monkeypatch)


def unlocks_of(sandbox: Sandbox, search_id: str) -> list[dict[str, Any]]:
    return [
        r
        for r in sandbox.spending_requests()
        if r["path"].endswith(f"/searches/{search_id}/exports")
    ]


def requests_asked() -> list[ApprovalRequest]:
    requests, _ = ApprovalDesk(approvals_folder()).requests()
    return requests


def unlocking(machine: Machine, session: Any, search_id: str) -> asyncio.Task[CallToolResult]:
    """The agent's call, running while the test plays the person at the app."""
    arguments = {"search_id": search_id, "results": RESULTS}
    return asyncio.create_task(machine.call(session, "unlock_results", arguments))


async def outcome(call: asyncio.Task[CallToolResult]) -> CallToolResult:
    return await asyncio.wait_for(call, timeout=ASKING_SECONDS)


def progress_told(machine: Machine) -> list[list[Any]]:
    """The progress notifications the client received (`[progress, total, message]`)."""
    return [json.loads(r) for r in machine.received if r.startswith("[")]


async def test_an_agent_spends_only_after_the_yes_in_the_app_and_once(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    before = sandbox.credits()
    app = over_socket(sandbox.base_url)
    async with machine.session("--approve-in-app", client_info=AGENT) as session:
        call = unlocking(machine, session, search_id)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_request(pilot, seconds=ASKING_SECONDS)
            shown = await wait_for_text(pilot, "test-agent 1.2.3")
            [request] = requests_asked()
            assert request.asker.surface == "agent"
            assert f"pid {request.asker.pid}" in shown
            assert unlocks_of(sandbox, search_id) == []

            await pilot.press("y")
            await wait_for_screen(pilot, ConfirmSpend)
            await pilot.press("y")
            result = await outcome(call)
            await wait_for_text(pilot, "sent by the asker")
            await wait_for_text(pilot, f"{before - RESULTS:,} credits")  # the header follows
            await settle(pilot)

    sent = ok(result)
    assert sent["sent"] is True
    assert sent["decision"]["authorized_by"] == "confirmation"
    assert sandbox.credits() == before - RESULTS
    [unlock] = unlocks_of(sandbox, search_id)
    assert unlock["idempotency_key"] == sent["idempotency_key"] == request.idempotency_key
    [spent] = SpendJournal().history()
    assert (spent.surface, spent.outcome_detail["id"]) == ("agent", sent["record"]["exportId"])
    told = progress_told(machine)
    assert told, "no progress notification while waiting"
    assert "Waiting for approval in the running leadtui app" in told[0][2]
    assert told[0][1] == 120


async def test_a_denial_in_the_app_sends_nothing(machine: Machine, sandbox: Sandbox) -> None:
    search_id = sandbox.new_search()
    before = sandbox.credits()
    app = over_socket(sandbox.base_url)
    async with machine.session("--approve-in-app", client_info=AGENT) as session:
        call = unlocking(machine, session, search_id)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_request(pilot, seconds=ASKING_SECONDS)
            await pilot.press("n")
            error = error_of(await outcome(call))

    assert error["code"] == "denied_in_app"
    assert error["quote"]["total"] == RESULTS
    assert error["decision"]["verdict"] == "ask"
    assert "do not retry" in error["hint"]
    assert unlocks_of(sandbox, search_id) == []
    assert sandbox.credits() == before


async def test_no_app_to_answer_in_time_sends_nothing(machine: Machine, sandbox: Sandbox) -> None:
    search_id = sandbox.new_search()
    before = sandbox.credits()
    async with machine.session(
        "--approve-in-app", "--approval-timeout", "2", client_info=AGENT
    ) as session:
        error = error_of(await outcome(unlocking(machine, session, search_id)))

    assert error["code"] == "approval_timeout"
    assert error["quote"]["total"] == RESULTS
    assert unlocks_of(sandbox, search_id) == []
    assert sandbox.credits() == before
    [request] = requests_asked()
    assert request.answer is not None
    assert request.answer.verdict is Verdict.TIMED_OUT
    logged = (machine.home / "server-stderr.txt").read_text()
    assert "leadtui mcp: Waiting for approval in the running leadtui app" in logged


async def test_two_apps_open_approve_once_only(machine: Machine, sandbox: Sandbox) -> None:
    search_id = sandbox.new_search()
    before = sandbox.credits()
    first, second = over_socket(sandbox.base_url), over_socket(sandbox.base_url)
    async with machine.session("--approve-in-app", client_info=AGENT) as session:
        call = unlocking(machine, session, search_id)
        async with (
            first.run_test(size=(100, 30)) as one,
            second.run_test(size=(100, 30)) as two,
        ):
            await open_request(one, seconds=ASKING_SECONDS)
            await open_request(two)
            # Both confirmations are up at once; the first yes counts, the second finds it taken.
            await one.press("y")
            await wait_for_screen(one, ConfirmSpend)
            await two.press("y")
            await wait_for_screen(two, ConfirmSpend)
            await one.press("y")
            await two.press("y")
            result = await outcome(call)
            await wait_until(
                two, lambda: any("nothing" in n.message for n in second._notifications)
            )

    ok(result)
    assert len(unlocks_of(sandbox, search_id)) == 1
    assert sandbox.credits() == before - RESULTS


def bigger(doc: dict[str, Any]) -> None:
    doc["spend"]["params"]["additional_results"] = 400
    doc["quote"]["units"] = 400


def another_account(doc: dict[str, Any]) -> None:
    doc["account"]["id"] = "acct_someone_else"


@pytest.mark.parametrize(
    ("tamper", "standing"),
    [(bigger, "refused: the file does not match its spend"), (another_account, "another account")],
    ids=["a bigger amount", "another account"],
)
async def test_a_request_file_tampered_with_is_never_approved_nor_sent(
    machine: Machine,
    sandbox: Sandbox,
    tamper: Callable[[dict[str, Any]], None],
    standing: str,
) -> None:
    search_id = sandbox.new_search()
    before = sandbox.credits()
    app = over_socket(sandbox.base_url)
    async with machine.session("--approve-in-app", client_info=AGENT) as session:
        call = unlocking(machine, session, search_id)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for_text(pilot, "1 approval waiting", seconds=ASKING_SECONDS)
            [request] = requests_asked()
            path = approvals_folder() / f"{request.id}.json"
            doc = json.loads(path.read_text())
            tamper(doc)
            path.write_text(json.dumps(doc))

            await pilot.press("A")
            await wait_for_screen(pilot, ApprovalsScreen)
            await wait_for_text(pilot, standing)
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, ApprovalsScreen)  # no confirmation: nothing to approve

            # An approval of what the file now says (as if written by something else): the
            # tool server holds its own spend, and this is not it.
            changed = ApprovalDesk(approvals_folder()).get(request.id)
            assert changed is not None
            forged = Answer(
                Verdict.APPROVED,
                Party.here("app", "leadtui app"),
                changed.idempotency_key,
                changed.body_sha256,
                changed.quote.total,
                changed.account,
            )
            assert ApprovalDesk(approvals_folder()).answer(request.id, forged)
            error = error_of(await outcome(call))

    assert error["code"] == "approval_mismatch"
    assert error["quote"]["total"] == RESULTS
    assert unlocks_of(sandbox, search_id) == []
    assert sandbox.credits() == before


async def test_the_server_killed_after_the_yes_leaves_it_pending_and_a_resend_debits_once(
    tmp_path: Path, slow_sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine = sharing(tmp_path, slow_sandbox, monkeypatch)
    search_id = slow_sandbox.new_search()
    before = slow_sandbox.credits()
    journal = SpendJournal()
    app = over_socket(slow_sandbox.base_url)
    async with machine.session("--approve-in-app", client_info=AGENT) as session:
        call = unlocking(machine, session, search_id)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_request(pilot, seconds=ASKING_SECONDS)
            [request] = requests_asked()
            await pilot.press("y")
            await wait_for_screen(pilot, ConfirmSpend)
            await pilot.press("y")
            await wait_until(pilot, lambda: journal.pending() != [], seconds=ASKING_SECONDS)
            os.kill(request.asker.pid, signal.SIGKILL)
            await wait_for_text(pilot, "the asker has stopped", seconds=30)
        with contextlib.suppress(Exception):  # the server died mid-call: whatever comes of it
            await outcome(call)

    [pending] = journal.pending()
    assert pending.idempotency_key == request.idempotency_key
    [row] = machine.command("pending", "list")["data"]
    assert row["idempotency_key"] == pending.idempotency_key
    assert row["surface"] == "agent"
    assert row["asked_by"]["name"] == "test-agent 1.2.3"
    assert row["asked_by"]["pid"] == request.asker.pid
    assert row["approved_by"]["name"] == "leadtui app"

    # The killed send reaches the server in its own time; the resend uses the same key.
    for _ in range(400):
        if any(u["status"] for u in unlocks_of(slow_sandbox, search_id)):
            break
        await asyncio.sleep(0.05)
    resent = machine.command("pending", "resend", pending.idempotency_key)

    assert resent["exportId"]
    assert slow_sandbox.credits() == before - RESULTS
    keys = {u["idempotency_key"] for u in unlocks_of(slow_sandbox, search_id)}
    assert keys == {pending.idempotency_key}
    assert journal.pending() == []
