"""End to end: `leadtui unlock … --approve-in-app` in a process of its own, without a terminal,
asks; the app (Pilot) against the same sandbox over a socket shows it and answers. Only the
asking process sends; a yes is spent once, whatever else happens."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.e2e.sandbox_process import clean_env, slowed
from tests.support.approvals_app import (
    KEY,
    LOADED_SECONDS,
    approve,
    approve_in_both,
    open_request,
    over_socket,
)
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until

from leadtui.api.client import LeadClient
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(300)]

SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


@pytest.fixture
def sandbox() -> Iterator[EmbeddedSandbox]:
    with EmbeddedSandbox(SandboxConfig(job_seconds=0.3)) as running:
        yield running


async def leadtui(sandbox: EmbeddedSandbox, *argv: str) -> asyncio.subprocess.Process:
    """`leadtui ARGV` as its own process, no terminal (stdin is not one), same state dir."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "leadtui",
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=clean_env() | {"LEADTUI_BASE_URL": sandbox.base_url, "LEADTUI_API_KEY": KEY},
    )


async def finished(process: asyncio.subprocess.Process) -> tuple[int, Any, str]:
    out, err = await asyncio.wait_for(process.communicate(), timeout=LOADED_SECONDS)
    assert process.returncode is not None
    return process.returncode, json.loads(out) if out.strip() else None, err.decode()


async def control(sandbox: EmbeddedSandbox, method: str, path: str, body: Any = None) -> Any:
    async with httpx.AsyncClient(base_url=sandbox.base_url) as http:
        response = await http.request(method, path, json=body)
        response.raise_for_status()
        return response.json()["data"]


async def credits(sandbox: EmbeddedSandbox) -> int:
    return int((await control(sandbox, "PATCH", "/_sandbox/accounts/acct_demo", {}))["credits"])


async def unlocks(sandbox: EmbeddedSandbox) -> list[dict[str, Any]]:
    log = await control(sandbox, "GET", "/_sandbox/requests")
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


async def new_search(sandbox: EmbeddedSandbox) -> str:
    async with LeadClient(sandbox.base_url, KEY) as client:
        return str((await client.searches.create(SEARCH)).searchId)


async def ask(sandbox: EmbeddedSandbox, search_id: str) -> asyncio.subprocess.Process:
    return await leadtui(
        sandbox, "unlock", search_id, "--results", "5", "--approve-in-app", "--json"
    )


async def test_a_script_spends_only_after_the_yes_in_the_app_and_once(
    sandbox: EmbeddedSandbox,
) -> None:
    app = over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot)
        text = await wait_for_text(pilot, "command line", seconds=LOADED_SECONDS)
        assert f"{asker.pid}" in text
        assert await unlocks(sandbox) == []

        await approve(pilot)
        code, doc, err = await finished(asker)
        await wait_for_text(pilot, "sent by the asker", seconds=LOADED_SECONDS)
        # The header follows the asker's spend.
        await wait_for_text(pilot, "9,995 credits", seconds=LOADED_SECONDS)
        await settle(pilot)

    assert code == 0, err
    assert "Waiting for approval in the running leadtui app" in err
    assert await credits(sandbox) == before - 5
    [spent] = SpendJournal().history()
    assert spent.outcome is not None
    assert spent.outcome_detail["id"] == doc["exportId"]
    assert [u["idempotency_key"] for u in await unlocks(sandbox)] == [spent.idempotency_key]


async def test_a_denial_sends_nothing(sandbox: EmbeddedSandbox) -> None:
    app = over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot)
        await pilot.press("n")
        code, doc, _ = await finished(asker)

    assert code == 10
    assert doc["error"]["code"] == "denied_in_app"
    assert doc["error"]["quote"]["total"] == 5
    assert await unlocks(sandbox) == []
    assert await credits(sandbox) == before


async def test_two_apps_open_approve_once_only(sandbox: EmbeddedSandbox) -> None:
    first, second = over_socket(sandbox.base_url), over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    async with first.run_test(size=(100, 30)) as one, second.run_test(size=(100, 30)) as two:
        await open_request(one)
        await open_request(two)
        await approve_in_both(one, two)
        code, _, err = await finished(asker)
        # The second app's toast, as its History keeps every notification's words.
        await wait_until(
            two,
            lambda: any("nothing" in e.text for e in second.history.entries()),
            seconds=LOADED_SECONDS,
        )

    assert code == 0, err
    assert len(await unlocks(sandbox)) == 1
    assert await credits(sandbox) == before - 5


async def test_an_asker_killed_after_the_yes_leaves_it_pending_and_a_resend_debits_once(
    sandbox: EmbeddedSandbox,
) -> None:
    app = over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    journal = SpendJournal()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot)
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend, seconds=LOADED_SECONDS)
        # The server answers slowly from now on: the asker is killed while its send waits.
        with slowed(sandbox.base_url, 3000):
            await pilot.press("y")
            await wait_until(pilot, lambda: journal.pending() != [], seconds=LOADED_SECONDS)
            asker.send_signal(signal.SIGKILL)
            await asker.wait()
        await wait_for_text(pilot, "the asker has stopped", seconds=LOADED_SECONDS)

    [pending] = journal.pending()
    listed = await leadtui(sandbox, "pending", "list", "--json")
    code, doc, err = await finished(listed)
    assert code == 0, err
    [row] = doc["data"]
    assert row["idempotency_key"] == pending.idempotency_key
    assert row["asked_by"]["name"] == "command line"
    assert row["asked_by"]["pid"] == asker.pid
    assert row["approved_by"]["name"] == "leadtui app"

    # Whether the killed send reached the server or not, and whenever it ends there, the
    # resend carries the same key: the server answers a repeat with the first answer.
    resent = await leadtui(sandbox, "pending", "resend", pending.idempotency_key, "--json")
    code, doc, err = await finished(resent)

    assert code == 0, err
    assert await credits(sandbox) == before - 5
    assert {u["idempotency_key"] for u in await unlocks(sandbox)} == {pending.idempotency_key}
    assert journal.pending() == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_while_waiting_withdraws_the_request_and_answers_interrupted(
    sandbox: EmbeddedSandbox, signum: int
) -> None:
    app = over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot)
        asker.send_signal(signum)
        code, doc, err = await finished(asker)
        await wait_for_text(pilot, "withdrawn by the asker", seconds=LOADED_SECONDS)
        assert app.approvals_waiting == 0

    assert code == 130, err
    assert doc["error"]["code"] == "interrupted"
    assert "withdrawn" in doc["error"]["message"]
    assert doc["error"]["quote"]["total"] == 5
    assert await unlocks(sandbox) == []
    assert await credits(sandbox) == before


async def test_fifos_beside_the_journal_and_in_the_old_approvals_folder_block_nothing(
    sandbox: EmbeddedSandbox,
) -> None:
    state = SpendJournal().path.parent
    (state / "approvals").mkdir()
    for fifo in ("approvals/0123abcd.json", "approvals/0123abcd.answer.json", "waiting.json"):
        os.mkfifo(state / fifo)
    app = over_socket(sandbox.base_url)
    before = await credits(sandbox)
    asker = await ask(sandbox, await new_search(sandbox))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_request(pilot)
        await approve(pilot)
        code, _, err = await finished(asker)

    assert code == 0, err
    assert await credits(sandbox) == before - 5
    assert len(await unlocks(sandbox)) == 1
