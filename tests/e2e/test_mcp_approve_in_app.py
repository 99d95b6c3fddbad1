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
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp.types import CallToolResult, Implementation
from tests.e2e.sandbox_process import sandbox_process
from tests.mcp_tools.conftest import Machine, Sandbox, error_of, ok
from tests.support.approval_answers import answer_as_the_app
from tests.support.approvals_app import (
    LOADED_SECONDS,
    approve,
    approve_in_both,
    open_request,
    over_socket,
)
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until

from leadtui.spend.approvals import ApprovalDesk, ApprovalRequest, Ruling
from leadtui.spend.journal import SpendJournal
from leadtui.ui.screens.approvals import ApprovalsScreen

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(180)]

AGENT = Implementation(name="test-agent", version="1.2.3")
RESULTS = 5
# The tool server's start (the SDK loads) and its first quote, on a loaded machine.
ASKING_SECONDS = 60.0


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with sandbox_process("--job-seconds", "0.3") as base_url:
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


def requests_asked() -> list[ApprovalRequest]:
    return ApprovalDesk(SpendJournal()).listed().requests


@dataclass
class Asking:
    """An agent's unlock waiting for the app: its search, the balance before, the call."""

    sandbox: Sandbox
    search_id: str
    before: int
    call: asyncio.Task[CallToolResult]

    async def outcome(self) -> CallToolResult:
        return await asyncio.wait_for(self.call, timeout=ASKING_SECONDS)

    def unlocks(self) -> list[dict[str, Any]]:
        """The unlocks of this search the sandbox received."""
        path = f"/searches/{self.search_id}/exports"
        return [r for r in self.sandbox.spending_requests() if r["path"].endswith(path)]


@asynccontextmanager
async def agent_unlocking(machine: Machine, *options: str) -> AsyncIterator[Asking]:
    """`leadtui mcp --approve-in-app OPTIONS` for an agent whose client cannot ask, and its
    call to unlock results of a new search, running while the test plays the person."""
    sandbox = machine.sandbox
    search_id, before = sandbox.new_search(), sandbox.credits()
    async with machine.session("--approve-in-app", *options, client_info=AGENT) as session:
        arguments = {"search_id": search_id, "results": RESULTS}
        call = asyncio.create_task(machine.call(session, "unlock_results", arguments))
        yield Asking(sandbox, search_id, before, call)


def progress_told(machine: Machine) -> list[list[Any]]:
    """The progress notifications the client received (`[progress, total, message]`)."""
    return [json.loads(r) for r in machine.received if r.startswith("[")]


async def test_an_agent_spends_only_after_the_yes_in_the_app_and_once(machine: Machine) -> None:
    app = over_socket(machine.sandbox.base_url)
    async with agent_unlocking(machine) as asking, app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot, seconds=ASKING_SECONDS)
        shown = await wait_for_text(pilot, "test-agent 1.2.3", seconds=LOADED_SECONDS)
        [request] = requests_asked()
        assert request.asker.surface == "agent"
        assert f"pid {request.asker.pid}" in shown
        assert asking.unlocks() == []

        await approve(pilot)
        result = await asking.outcome()
        await wait_for_text(pilot, "sent by the asker", seconds=LOADED_SECONDS)
        await wait_for_text(
            pilot, f"{asking.before - RESULTS:,} credits", seconds=LOADED_SECONDS
        )  # the header follows
        await settle(pilot)

    sent = ok(result)
    assert sent["sent"] is True
    assert sent["decision"]["authorized_by"] == "confirmation"
    assert machine.sandbox.credits() == asking.before - RESULTS
    [unlock] = asking.unlocks()
    assert unlock["idempotency_key"] == sent["idempotency_key"] == request.idempotency_key
    [spent] = SpendJournal().history()
    assert (spent.surface, spent.outcome_detail["id"]) == ("agent", sent["record"]["exportId"])
    told = progress_told(machine)
    assert told, "no progress notification while waiting"
    assert "Waiting for approval in the running leadtui app" in told[0][2]
    assert told[0][1] == 120


async def test_a_denial_in_the_app_sends_nothing(machine: Machine) -> None:
    app = over_socket(machine.sandbox.base_url)
    async with agent_unlocking(machine) as asking, app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot, seconds=ASKING_SECONDS)
        await pilot.press("n")
        error = error_of(await asking.outcome())

    assert error["code"] == "denied_in_app"
    assert error["quote"]["total"] == RESULTS
    assert error["decision"]["verdict"] == "ask"
    assert "do not retry" in error["hint"]
    assert asking.unlocks() == []
    assert machine.sandbox.credits() == asking.before


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_while_the_server_waits_withdraws_the_request_and_answers_interrupted(
    machine: Machine, signum: int
) -> None:
    app = over_socket(machine.sandbox.base_url)
    async with agent_unlocking(machine) as asking, app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot, seconds=ASKING_SECONDS)
        [request] = requests_asked()
        os.kill(request.asker.pid, signum)
        error = error_of(await asking.outcome())
        await wait_for_text(pilot, "withdrawn by the asker", seconds=LOADED_SECONDS)

    assert error["code"] == "interrupted"
    assert error["quote"]["total"] == RESULTS
    assert asking.unlocks() == []
    assert machine.sandbox.credits() == asking.before


async def test_no_app_to_answer_in_time_sends_nothing(machine: Machine) -> None:
    async with agent_unlocking(machine, "--approval-timeout", "2") as asking:
        error = error_of(await asking.outcome())

    assert error["code"] == "approval_timeout"
    assert error["quote"]["total"] == RESULTS
    assert asking.unlocks() == []
    assert machine.sandbox.credits() == asking.before
    [request] = requests_asked()
    assert request.answer is not None
    assert request.answer.verdict is Ruling.TIMED_OUT
    logged = (machine.home / "server-stderr.txt").read_text()
    assert "leadtui mcp: Waiting for approval in the running leadtui app" in logged


async def test_two_apps_open_approve_once_only(machine: Machine) -> None:
    first, second = over_socket(machine.sandbox.base_url), over_socket(machine.sandbox.base_url)
    async with (
        agent_unlocking(machine) as asking,
        first.run_test(size=(100, 30)) as one,
        second.run_test(size=(100, 30)) as two,
    ):
        await open_request(one, seconds=ASKING_SECONDS)
        await open_request(two)
        await approve_in_both(one, two)
        result = await asking.outcome()
        # The second yes found the request answered: both apps see it sent, by the asker.
        await wait_for_text(one, "sent by the asker", seconds=LOADED_SECONDS)
        await wait_for_text(two, "sent by the asker", seconds=LOADED_SECONDS)
        await settle(one)

    ok(result)
    assert len(asking.unlocks()) == 1
    assert machine.sandbox.credits() == asking.before - RESULTS


def bigger(doc: dict[str, Any]) -> None:
    doc["params"]["additional_results"] = 400
    doc["quote"]["units"] = 400


def another_account(doc: dict[str, Any]) -> None:
    doc["account"]["id"] = "acct_someone_else"


@pytest.mark.parametrize(
    ("tamper", "standing"),
    [
        (bigger, "refused: the request does not match its spend"),
        (another_account, "another account"),
    ],
    ids=["a bigger amount", "another account"],
)
async def test_a_request_tampered_with_in_the_journal_is_never_approved_nor_sent(
    machine: Machine, tamper: Callable[[dict[str, Any]], None], standing: str
) -> None:
    app = over_socket(machine.sandbox.base_url)
    async with agent_unlocking(machine) as asking, app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "1 approval waiting", seconds=ASKING_SECONDS)
        [request] = requests_asked()
        doc = request.to_json()
        tamper(doc)
        with sqlite3.connect(SpendJournal().path) as db:
            db.execute(
                "UPDATE approval_requests SET request = ? WHERE id = ?",
                (json.dumps(doc), request.id),
            )

        await pilot.press("A")
        await wait_for_screen(pilot, ApprovalsScreen, seconds=LOADED_SECONDS)
        await wait_for_text(pilot, standing, seconds=LOADED_SECONDS)
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: any(e.title == "Not approved here" for e in app.history.entries()),
            seconds=LOADED_SECONDS,
        )
        assert isinstance(app.screen, ApprovalsScreen)  # no confirmation: nothing to approve

        # A yes to what the row now says (as if written by something else): the tool server
        # holds its own spend, and this is not it.
        desk = ApprovalDesk(SpendJournal())
        changed = desk.get(request.id)
        assert changed is not None
        assert answer_as_the_app(desk, changed, Ruling.APPROVED)
        error = error_of(await asking.outcome())

    assert error["code"] == "approval_mismatch"
    assert error["quote"]["total"] == RESULTS
    assert asking.unlocks() == []
    assert machine.sandbox.credits() == asking.before


async def test_the_server_killed_after_the_yes_leaves_it_pending_and_a_resend_debits_once(
    machine: Machine, sandbox: Sandbox
) -> None:
    journal = SpendJournal()
    app = over_socket(sandbox.base_url)
    async with agent_unlocking(machine) as asking:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_request(pilot, seconds=ASKING_SECONDS)
            [request] = requests_asked()
            # Every request takes a while: the approved spend is in flight long enough to be
            # killed.
            with sandbox.slowed(700):
                await approve(pilot)
                await wait_until(pilot, lambda: journal.pending() != [], seconds=ASKING_SECONDS)
                os.kill(request.asker.pid, signal.SIGKILL)
            await wait_for_text(pilot, "the asker has stopped", seconds=30)
        with contextlib.suppress(Exception):  # the server died mid-call: whatever comes of it
            await asking.outcome()

    [pending] = journal.pending()
    assert pending.idempotency_key == request.idempotency_key
    [row] = machine.command("pending", "list")["data"]
    assert row["idempotency_key"] == pending.idempotency_key
    assert row["surface"] == "agent"
    assert row["asked_by"]["name"] == "test-agent 1.2.3"
    assert row["asked_by"]["pid"] == request.asker.pid
    assert row["approved_by"]["name"] == "leadtui app"

    # Whether the killed send reached the server or not, and whenever it ends there, the
    # resend carries the same key: the server answers a repeat with the first answer.
    resent = machine.command("pending", "resend", pending.idempotency_key)

    assert resent["exportId"]
    assert sandbox.credits() == asking.before - RESULTS
    assert {u["idempotency_key"] for u in asking.unlocks()} == {pending.idempotency_key}
    assert journal.pending() == []
