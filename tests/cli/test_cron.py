"""The README's cron line, read from the README and run as cron runs it: `sh -c`, a bare
environment (`env -i` and only what the line needs), no terminal, against a sandbox process
on loopback. Each night it either leaves the export's ZIP in a folder it made, or exits
non-zero with exactly one line on stderr, which cron mails."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.cli.exit_codes import Exit
from leadtui.config.settings import SpendPolicy
from leadtui.spend.decision import Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from tests.e2e.sandbox_process import free_port, sandbox_process
from tests.support import spend_requests

pytestmark = pytest.mark.timeout(120)

README = Path(__file__).parents[2] / "README.md"
KEY = "sk_demo_full"
TONIGHT = "2026-11-27"
LAST_NIGHT = "2026-11-26"
SEARCH = {
    "activities": [{"name": "Bakery"}, {"name": "Florist"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}, {"name": "Lyon"}],
}


def cron_command() -> str:
    """The command of the README's crontab line, as cron hands it to sh: the five time
    fields taken off, and `\\%` (a `%` that is not cron's newline) made `%` again."""
    section = README.read_text().split("Cron — every night", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    (line,) = [line for line in block.splitlines() if line and not line.startswith("#")]
    return line.split(None, 5)[5].replace("\\%", "%")


@dataclass
class Night:
    """One machine's nights: its home, and the sandbox its cron line talks to."""

    home: Path
    base_url: str
    bin: Path

    @property
    def leads(self) -> Path:
        return self.home / "leads"

    @property
    def journal(self) -> SpendJournal:
        return SpendJournal(self.home / ".local" / "state" / "leadtui" / "journal.sqlite3")

    def run(
        self, date: str = TONIGHT, base_url: str | None = None, command: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        """The cron line under `env -i`: HOME, PATH, SHELL, LOGNAME as cron sets them, and
        the key and server the line needs; stdin empty, no terminal (a session of its own)."""
        (self.bin / "date").write_text(
            f'#!/bin/sh\nif [ "$1" = "+%F" ]; then echo {date}; else exec /bin/date "$@"; fi\n'
        )
        (self.bin / "date").chmod(0o755)
        environment = {
            "HOME": str(self.home),
            "PATH": f"{self.bin}:{Path(sys.executable).parent}:/usr/bin:/bin",
            "SHELL": "/bin/sh",
            "LOGNAME": "cron",
            "LEADTUI_BASE_URL": base_url or self.base_url,
            "LEADTUI_API_KEY": KEY,
        }
        assignments = [f"{k}={v}" for k, v in environment.items()]
        return subprocess.run(
            ["/usr/bin/env", "-i", *assignments, "/bin/sh", "-c", command or cron_command()],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
            start_new_session=True,
        )

    def control(self, method: str, path: str, body: object = None) -> object:
        response = httpx.request(method, f"{self.base_url}{path}", json=body, timeout=30)
        response.raise_for_status()
        return response.json()["data"]

    def credits(self) -> int:
        account = self.control("PATCH", "/_sandbox/accounts/acct_demo", {})
        assert isinstance(account, dict)
        return int(account["credits"])

    def requests(self, method: str, path_end: str) -> list[dict[str, object]]:
        log = self.control("GET", "/_sandbox/requests")
        assert isinstance(log, list)
        return [r for r in log if r["method"] == method and str(r["path"]).endswith(path_end)]


@pytest.fixture
def sandbox() -> Iterator[str]:
    """A sandbox of its own (ids are never reused, even after a reset)."""
    with sandbox_process("--job-seconds", "0.3") as url:
        yield url


@pytest.fixture
def night(sandbox: str, tmp_path: Path) -> Night:
    """A sandbox whose fifth search is the README's srch_000005; a home without the leads
    folder."""
    night = Night(tmp_path / "home", sandbox, tmp_path / "bin")
    night.home.mkdir()
    night.bin.mkdir()
    for _ in range(5):
        response = httpx.post(
            f"{sandbox}/api/v1/searches",
            json=SEARCH,
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=30,
        )
        response.raise_for_status()
    assert response.json()["data"]["searchId"] == "srch_000005"
    return night


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def zips(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def test_the_readme_line_is_the_one_command() -> None:
    command = cron_command()
    assert command.startswith("leadtui unlock srch_000005 ")
    assert "nightly-$(date +%F)" in command
    assert "--download" in command


def test_a_night_leaves_the_zip_in_a_folder_it_made(night: Night) -> None:
    assert not night.leads.exists()
    before = night.credits()
    done = night.run()
    assert done.returncode == Exit.OK, done.stderr
    assert done.stderr == ""
    (saved,) = zips(night.leads)
    assert saved.name.startswith("exp_")
    assert saved.suffix == ".zip"
    assert zipfile.is_zipfile(saved)
    assert before - night.credits() == 200


def test_the_same_night_twice_spends_and_downloads_once(night: Night) -> None:
    before = night.credits()
    first, second = night.run(), night.run()
    assert (first.returncode, second.returncode) == (Exit.OK, Exit.OK), second.stderr
    assert second.stderr == ""
    (saved,) = zips(night.leads)
    assert zipfile.is_zipfile(saved)
    assert before - night.credits() == 200
    assert len(night.requests("POST", "/exports")) == 1
    assert len(night.requests("GET", "/download")) == 1


def test_a_spend_over_the_ceiling_is_refused_in_one_line(night: Night) -> None:
    night.control("PUT", "/_sandbox/pricing", {"stated": 2, "charged": 2})
    before = night.credits()
    done = night.run()
    assert done.returncode == Exit.CONFIRMATION_REQUIRED
    assert "over_ceiling" in one_line(done.stderr)
    assert zips(night.leads) == []
    assert night.credits() == before
    assert night.requests("POST", "/exports") == []
    as_json = night.run(command=cron_command().replace(" >/dev/null", " --json"))
    assert as_json.returncode == Exit.CONFIRMATION_REQUIRED
    assert json.loads(as_json.stdout)["error"]["code"] == "over_ceiling"
    assert "over_ceiling" in one_line(as_json.stderr)


def test_no_credits_is_said_in_one_line(night: Night) -> None:
    night.control("PATCH", "/_sandbox/accounts/acct_demo", {"credits": 0})
    done = night.run()
    assert done.returncode == Exit.CONFLICT
    assert "insufficient_credits" in one_line(done.stderr)
    assert zips(night.leads) == []
    assert night.requests("POST", "/exports") == []


def test_a_server_that_is_down_is_said_in_one_line(night: Night) -> None:
    done = night.run(base_url=f"http://127.0.0.1:{free_port()}")
    assert done.returncode == Exit.UNAVAILABLE
    assert "network" in one_line(done.stderr)
    assert zips(night.leads) == []


def journal_an_unsent_unlock(night: Night, key: str) -> None:
    """What a run killed after journaling its spend and before sending it leaves: the
    intent, pending, in the journal the cron line uses."""

    async def journal() -> None:
        async with LeadClient(night.base_url, KEY) as client:
            search = await client.searches.get("srch_000005")
            request = SpendRequest.for_unlock(Quote.unlock(search, 200, None), search.searchId, key)
            gate = SpendGate(
                night.journal, profile="default", policy=SpendPolicy(0, read_only=False)
            )
            account = await gate.account_of(client)
            spend_requests.journal_intent(
                gate, request, client.base_url, account, surface=Surface.CLI.value
            )

    asyncio.run(journal())


def test_a_spend_left_pending_last_night_is_resolved_with_its_own_key(night: Night) -> None:
    journal_an_unsent_unlock(night, f"nightly-{LAST_NIGHT}")
    (pending,) = night.journal.pending()
    before = night.credits()
    done = night.run()
    assert done.returncode == Exit.OK, done.stderr
    assert done.stderr == ""
    assert night.journal.pending() == []
    sent = {r["idempotency_key"] for r in night.requests("POST", "/exports")}
    assert sent == {pending.idempotency_key, f"nightly-{TONIGHT}"}
    assert before - night.credits() == 400  # last night's spend, once, and tonight's
    (saved,) = zips(night.leads)
    assert zipfile.is_zipfile(saved)
    again = night.run()
    assert again.returncode == Exit.OK
    assert before - night.credits() == 400
