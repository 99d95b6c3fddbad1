"""The server killed (or stopped) while a spend is in flight: the journal keeps it pending,
`leadtui pending` shows it as the agent's, and a resend with its key debits once, end to end."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from tests.e2e.sandbox_process import sandbox_process
from tests.mcp_tools.conftest import Machine, Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with sandbox_process() as base_url:
        yield Sandbox(base_url)


def _sender_pid(journal: Path, key: str) -> int | None:
    """The process holding the claim on the intent of `key`, once it is journaled."""
    if not journal.exists():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as db:
            row = db.execute(
                "SELECT claim_owner FROM spend_intents WHERE idempotency_key = ?", (key,)
            ).fetchone()
    except sqlite3.OperationalError:  # the journal is being created
        return None
    if row is None or not row[0]:
        return None
    return int(row[0].split("/")[1])


@pytest.mark.parametrize(
    ("stop", "key"), [(signal.SIGKILL, "agent-killed-1"), (signal.SIGTERM, "agent-stopped-1")]
)
async def test_a_spend_cut_short_is_pending_and_a_resend_debits_once(
    machine: Machine, sandbox: Sandbox, stop: signal.Signals, key: str
) -> None:
    search_id = sandbox.new_search()
    credits = sandbox.credits()
    journal = machine.home / "state" / "leadtui" / "journal.sqlite3"
    arguments = {"search_id": search_id, "results": 3, "idempotency_key": key}

    # Every request takes a while: the spend is in flight long enough to be stopped.
    with sandbox.slowed(700), anyio.move_on_after(60):
        async with (
            machine.session("--max-credits", "10") as session,
            anyio.create_task_group() as tg,
        ):

            async def call() -> None:
                # The server dies mid-call: whatever the client makes of that, nothing more.
                with contextlib.suppress(Exception):
                    await session.call_tool("unlock_results", arguments)

            tg.start_soon(call)
            # Another process writes the journal: looking again is the only way to see it.
            while (pid := _sender_pid(journal, key)) is None:  # noqa: ASYNC110
                await anyio.sleep(0.02)
            os.kill(pid, stop)
            tg.cancel_scope.cancel()

    pending = machine.command("pending", "list")["data"]
    assert isinstance(pending, list)
    (intent,) = pending
    assert intent["idempotency_key"] == key
    assert intent["surface"] == "agent"
    if stop is signal.SIGTERM:  # stopped, not killed: it says what it leaves pending
        logged = (machine.home / "server-stderr.txt").read_text()
        assert f"journaled as pending under the idempotency key {key}" in logged
        assert "Traceback" not in logged
    resent = machine.command("pending", "resend", key)
    assert resent["exportId"]
    assert machine.command("pending", "list")["data"] == []
    assert sandbox.credits() == credits - 3
