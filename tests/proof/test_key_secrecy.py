"""The API key never leaves the keyring (or the opt-in 0600 file): not in a log at DEBUG, an
error, a traceback, a repr, the CLI's output, the journal, the config, a snapshot or a
screenshot. Keys travel only over TLS or to this machine.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging
import re
import stat
import traceback
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest
from keyring.backends import fail

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError, LeadError
from leadtui.api.models import Export
from leadtui.cli import auth as auth_cli
from leadtui.cli.main import build_parser
from leadtui.config.profile import resolve_profile
from leadtui.config.secrets import insecure_key_path
from leadtui.config.settings import SpendPolicy
from leadtui.config.variables import config_path
from leadtui.sandbox.accounts import DEMO_KEYS
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from tests.conftest import FakeClock
from tests.support import spend_requests

REPO = Path(__file__).resolve().parents[2]
SECRETS = [key.secret for key in DEMO_KEYS]
SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


def leaks(text: str | bytes) -> list[str]:
    """Which demo secrets occur in `text` (also with whitespace squeezed out)."""
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    squeezed = re.sub(r"\s+", "", raw)
    return [s for s in SECRETS if s in raw or s in squeezed]


def everything_said(error: BaseException) -> str:
    return "".join([*traceback.format_exception(error), repr(error), str(error), repr(vars(error))])


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def run_cli(sandbox_app: Any, *argv: str) -> str:
    """The CLI as typed (it runs its own event loop, so tests call it from a thread)."""
    out, err = io.StringIO(), io.StringIO()
    auth_cli.run(
        build_parser().parse_args(list(argv)),
        transport=httpx.ASGITransport(app=sandbox_app),
        out=out,
        err=err,
        ask=lambda prompt: "",
        stdin=io.StringIO("sk_demo_full\n"),  # the key piped in, as a script gives it
    )
    return out.getvalue() + err.getvalue()


async def test_representative_flows_leak_no_key_into_logs_errors_or_files(
    make_client: Any,
    sandbox_app: Any,
    sandbox_clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, httpx and httpcore included
    journal = SpendJournal()  # the default path, under this test's XDG state dir
    gate = SpendGate(journal, profile="default", policy=SpendPolicy(0, read_only=False))
    full = make_client("sk_demo_full")
    errors: list[BaseException] = []
    shown: list[str] = [repr(full), full.key_masked]

    # The happy path: account, search, unlock and launch through the journal, download.
    shown += [repr(await full.me()), repr(await full.usage())]
    search = await full.searches.create(SEARCH)
    unlocked = await spend_requests.execute(
        gate, spend_requests.unlock(search.searchId, 3), full, confirmed=True
    )
    await spend_requests.execute(
        gate, spend_requests.extraction_create(EXTRACTION), full, confirmed=True
    )
    sandbox_clock.advance(5)
    assert isinstance(unlocked.record, Export)
    await full.exports.download(unlocked.record.exportId, tmp_path / "leads.zip")
    shown += [repr(unlocked), repr(journal.history())]

    # The unhappy paths: wrong scope (journaled as rejected), bad keys, no server at all.
    readonly = make_client("sk_demo_readonly")
    for attempt in (
        spend_requests.execute(
            gate, spend_requests.unlock(search.searchId, 1), readonly, confirmed=True
        ),
        make_client("sk_demo_revoked").me(),
        make_client("sk_demo_expired").exports.list(),
        full.exports.results("exp_missing"),
    ):
        with pytest.raises(LeadError) as caught:
            await attempt
        errors.append(caught.value)
    async with LeadClient("http://127.0.0.1:9", "sk_demo_full", max_retries=0) as nowhere:
        with pytest.raises(LeadError) as caught:
            await nowhere.me()
        errors.append(caught.value)

    # The CLI, with the key in the environment, prints who you are and the masked key.
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    monkeypatch.setenv("LEADTUI_BASE_URL", "http://127.0.0.1")
    said = await asyncio.to_thread(run_cli, sandbox_app, "auth", "status")
    assert "…full" in said

    logged = [caplog.text] + [
        f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records
    ]
    assert len(caplog.records) > 10, "the flows are logged at DEBUG"
    assert [leaks(text) for text in logged if leaks(text)] == []
    assert not any("Bearer" in text for text in logged)
    assert [leaks(everything_said(e)) for e in errors if leaks(everything_said(e))] == []
    assert [leaks(text) for text in [*shown, said] if leaks(text)] == []
    state_and_config = files_under(tmp_path / "xdg")
    assert any(p.name.startswith("journal") for p in state_and_config)
    assert {p.name: leaks(p.read_bytes()) for p in state_and_config if leaks(p.read_bytes())} == {}


def snapshot_and_screenshot_files() -> list[Path]:
    return sorted([*REPO.glob("tests/**/__snapshots__/**/*"), *REPO.glob("screenshots/*.svg")])


def test_snapshots_and_screenshots_show_keys_only_masked() -> None:
    files = [p for p in snapshot_and_screenshot_files() if p.is_file()]
    assert files, "the UI's snapshots and screenshots are checked in"
    shown_keys: set[str] = set()
    for path in files:
        # Text as drawn: tags dropped, entities decoded (the SVG splits text into runs).
        text = html.unescape(re.sub(r"<[^>]+>", "", path.read_text(errors="replace")))
        assert leaks(text) == [], path.name
        shown_keys |= set(re.findall(r"sk_\S{0,12}", text))
    assert all("…" in shown for shown in shown_keys), shown_keys


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com",
        "http://10.0.0.7:8080",
        "http://0.0.0.0:8000",
        "http://[2001:db8::1]",
        "http://localhost.example.com",
        "http://127.0.0.1.nip.io",
        "HTTP://API.EXAMPLE.COM/api/v1",
    ],
)
def test_a_plain_http_url_to_another_machine_is_refused_before_any_request(url: str) -> None:
    sent: list[httpx.Request] = []

    def server(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200)

    transport = httpx.MockTransport(server)
    with pytest.raises(ConfigurationError) as caught:
        LeadClient(url, "sk_demo_full", transport=transport)
    assert "TLS" in caught.value.message
    assert sent == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000", "http://127.0.0.2", "http://[::1]:9"])
def test_plain_http_is_allowed_only_to_this_machine(url: str) -> None:
    LeadClient(url, "sk_demo_full")


async def test_insecure_storage_keeps_the_key_in_one_0600_file_and_nowhere_else(
    sandbox_app: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]  # a headless server: no keyring at all
    said = await asyncio.to_thread(
        run_cli, sandbox_app, "login", "--base-url", "http://127.0.0.1", "--insecure-storage"
    )
    assert "sk_demo_full" not in said
    key_file = insecure_key_path()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert leaks(key_file.read_bytes()) == ["sk_demo_full"]

    # The signed-in app's path: credentials from the file, a spend through the journal.
    creds = resolve_profile()
    assert creds.key is not None
    assert creds.base_url is not None
    journal = SpendJournal()
    gate = SpendGate(journal, profile=creds.name, policy=SpendPolicy(0, read_only=False))
    transport = httpx.ASGITransport(app=sandbox_app)
    async with LeadClient(creds.base_url, creds.key, transport=transport) as client:
        search = await client.searches.create(SEARCH)
        await spend_requests.execute(
            gate, spend_requests.unlock(search.searchId, 2), client, confirmed=True
        )

    assert config_path().is_file()
    others = [p for p in files_under(tmp_path / "xdg") if p != key_file]
    assert config_path() in others
    assert any(p.name.startswith("journal") for p in others)
    assert {p.name: leaks(p.read_bytes()) for p in others if leaks(p.read_bytes())} == {}
