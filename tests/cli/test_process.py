"""The real `leadtui` process against a sandbox process on a loopback socket: the import set
holds no Textual, a closed pipe ends quietly, and a process killed between journaling a spend
and hearing the answer is recovered by `leadtui pending resend`, debited once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.spend.journal import SpendJournal
from tests.e2e.sandbox_process import clean_env, sandbox_process, slowed

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(120)]

SEARCH = {
    "activities": [{"name": "Bakery"}, {"name": "Florist"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}, {"name": "Lyon"}],
}


def environment(base_url: str, home: Path) -> dict[str, str]:
    return clean_env() | {
        "LEADTUI_BASE_URL": base_url,
        "LEADTUI_API_KEY": "sk_demo_full",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
    }


def journal_of(home: Path) -> Path:
    return home / "state" / "leadtui" / "journal.sqlite3"


def leadtui(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "leadtui", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def new_search(base_url: str) -> str:
    response = httpx.post(
        f"{base_url}/api/v1/searches",
        json=SEARCH,
        headers={"Authorization": "Bearer sk_demo_full"},
        timeout=30,
    )
    response.raise_for_status()
    return str(response.json()["data"]["searchId"])


def credits(base_url: str) -> int:
    response = httpx.patch(f"{base_url}/_sandbox/accounts/acct_demo", json={}, timeout=30)
    return int(response.json()["data"]["credits"])


def requests_log(base_url: str) -> list[dict[str, object]]:
    log: list[dict[str, object]] = httpx.get(f"{base_url}/_sandbox/requests", timeout=30).json()[
        "data"
    ]
    return log


@pytest.fixture(scope="module")
def sandbox() -> Iterator[str]:
    with sandbox_process("--job-seconds", "0.3") as url:
        yield url


MODULES_AFTER = """
import sys
from leadtui.cli.main import main
code = main(sys.argv[1:])
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)))
sys.exit(code)
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["account", "--json"],
        ["searches", "list", "--json"],
        ["exports", "list", "--all", "--jsonl"],
        ["pending", "list", "--json"],
        ["unlock", "SEARCH", "--results", "2", "--dry-run", "--json"],
        ["unlock", "SEARCH", "--results", "2", "--max-credits", "2", "--json"],
    ],
)
def test_these_commands_never_import_textual(sandbox: str, tmp_path: Path, argv: list[str]) -> None:
    argv = [new_search(sandbox) if a == "SEARCH" else a for a in argv]
    done = subprocess.run(
        [sys.executable, "-c", MODULES_AFTER, *argv],
        capture_output=True,
        text=True,
        env=environment(sandbox, tmp_path),
        timeout=60,
        check=False,
    )
    assert done.returncode == Exit.OK, done.stdout + done.stderr
    for line in done.stdout.splitlines():
        json.loads(line)
    modules = set(done.stderr.rsplit("MODULES ", 1)[1].split())
    assert not {m for m in modules if m == "textual" or m.startswith("textual.")}
    assert not {m for m in modules if m == "leadtui.ui" or m.startswith("leadtui.ui.")}


def test_account_json_over_a_socket(sandbox: str, tmp_path: Path) -> None:
    done = leadtui(environment(sandbox, tmp_path), "account", "--json")
    assert done.returncode == Exit.OK
    assert json.loads(done.stdout)["credits"] >= 0
    assert done.stderr == ""


def test_a_closed_pipe_ends_quietly_without_a_traceback(sandbox: str, tmp_path: Path) -> None:
    env = environment(sandbox, tmp_path)
    search_id = new_search(sandbox)
    assert (
        leadtui(env, "unlock", search_id, "--results", "1000", "--max-credits", "1000").returncode
        == 0
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leadtui",
            "searches",
            "results",
            search_id,
            "--all",
            "--format",
            "csv",
            "--limit",
            "100",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    header = process.stdout.readline()
    assert header.startswith(b"leadId,")
    process.stdout.close()  # as `| head -1` does
    returncode = process.wait(timeout=60)
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert "Traceback" not in stderr
    assert stderr == ""
    assert returncode == Exit.OK


async def test_a_cli_killed_between_journal_and_answer_is_resent_and_debited_once(
    tmp_path: Path, sandbox: str
) -> None:
    env = environment(sandbox, tmp_path)
    search_id = await asyncio.to_thread(new_search, sandbox)
    before = await asyncio.to_thread(credits, sandbox)
    with slowed(sandbox, 1500):
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "leadtui",
            "unlock",
            search_id,
            "--results",
            "3",
            "--max-credits",
            "3",
            "--json",
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        journal = journal_of(tmp_path)
        try:
            # Wait for the condition: the intent is journaled (the unlock is being sent).
            for _ in range(3000):
                if journal.exists() and SpendJournal(journal).pending():
                    break
                assert child.returncode is None, "the command ended before it was killed"
                await asyncio.sleep(0.01)
        finally:
            os.kill(child.pid, signal.SIGKILL)
            await child.wait()
    (intent,) = SpendJournal(journal).pending()

    listed = await asyncio.to_thread(leadtui, env, "pending", "list", "--json")
    assert [i["idempotency_key"] for i in json.loads(listed.stdout)["data"]] == [
        intent.idempotency_key
    ]
    resent = await asyncio.to_thread(
        leadtui, env, "pending", "resend", intent.idempotency_key, "--json"
    )
    assert resent.returncode == Exit.OK, resent.stdout + resent.stderr
    assert json.loads(resent.stdout)["additional_results"] == 3
    after = await asyncio.to_thread(credits, sandbox)
    log = await asyncio.to_thread(requests_log, sandbox)

    assert before - after == 3  # debited once, whether or not the killed send arrived
    assert SpendJournal(journal).pending() == []
    unlocks = f"/searches/{search_id}/exports"
    sends = [r for r in log if r["method"] == "POST" and str(r["path"]).endswith(unlocks)]
    assert {r["idempotency_key"] for r in sends} == {intent.idempotency_key}
