"""`leadtui login / logout / auth status` against the sandbox: the key is checked with
GET /me before anything is saved, stored in the keyring (or, asked for, a 0600 file),
and never printed."""

from __future__ import annotations

import io
import stat
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest
from keyring.backends import fail

from leadtui.cli import auth as auth_cli
from leadtui.cli.main import build_parser
from leadtui.config.secrets import KeyStore, insecure_key_path
from leadtui.config.settings import config_path, load_settings
from tests.config.test_secrets import HangingKeyring
from tests.support.memory_keyring import MemoryKeyring

URL = "http://127.0.0.1"


class Terminal:
    """Captured stdout/stderr, plus what the user types."""

    def __init__(self, sandbox_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.transport = httpx.ASGITransport(app=sandbox_app)
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.monkeypatch = monkeypatch
        self.prompts: list[str] = []

    def type_key(self, key: str) -> None:
        def fake_getpass(prompt: str = "") -> str:
            self.prompts.append(prompt)
            return key

        self.monkeypatch.setattr("getpass.getpass", fake_getpass)

    def run(self, *argv: str, ask: str = "") -> int:
        self.out.seek(0)
        self.out.truncate()
        self.err.seek(0)
        self.err.truncate()
        ns = build_parser().parse_args(list(argv))
        return auth_cli.run(
            ns, transport=self.transport, out=self.out, err=self.err, ask=lambda _p: ask
        )

    @property
    def said(self) -> str:
        return self.out.getvalue() + self.err.getvalue()


@pytest.fixture
def term(sandbox_app: Any, monkeypatch: pytest.MonkeyPatch) -> Terminal:
    return Terminal(sandbox_app, monkeypatch)


def test_login_checks_the_key_then_saves_it(
    term: Terminal, isolated_machine: MemoryKeyring
) -> None:
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", URL) == auth_cli.EXIT_OK
    assert isolated_machine.store[("leadtui", "default")] == "sk_demo_full"
    assert load_settings().profile("default").base_url == URL
    assert "sk_demo_full" not in config_path().read_text()
    assert "hidden" in term.prompts[0]
    assert "sk_d…full" in term.said
    assert "Demo Co: 10000 credits, subscription active" in term.said
    assert "OS keyring" in term.said
    assert "sk_demo_full" not in term.said


def test_login_asks_for_the_server_when_it_is_unknown(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    assert term.run("login", ask=URL + "/api/v1/") == auth_cli.EXIT_OK
    assert load_settings().profile("default").base_url == URL


def test_login_to_a_named_profile(term: Terminal, isolated_machine: MemoryKeyring) -> None:
    term.type_key("sk_demo_low")
    assert term.run("login", "--profile", "low", "--base-url", URL) == 0
    assert isolated_machine.store == {("leadtui", "low"): "sk_demo_low"}
    assert load_settings().profile("low").base_url == URL
    assert term.run("auth", "status", "--profile", "low") == 0
    assert "Lowball Ltd: 5 credits" in term.said


@pytest.mark.parametrize("key", ["sk_demo_revoked", "sk_demo_expired", "sk_not_a_key_at_all"])
def test_a_rejected_key_saves_nothing(
    term: Terminal, isolated_machine: MemoryKeyring, key: str
) -> None:
    term.type_key(key)
    assert term.run("login", "--base-url", URL) == auth_cli.EXIT_CHECK_FAILED
    assert "401 unauthorized" in term.said
    assert "request id req_" in term.said
    assert "Nothing was saved" in term.said
    assert isolated_machine.store == {}
    assert not config_path().exists()
    assert key not in term.said


def test_a_key_with_limited_access_is_kept_with_a_warning(
    term: Terminal, isolated_machine: MemoryKeyring
) -> None:
    term.type_key("sk_demo_inactive")
    assert term.run("login", "--base-url", URL) == auth_cli.EXIT_OK
    assert "access is limited" in term.err.getvalue()
    assert "subscription_inactive" in term.err.getvalue()
    assert isolated_machine.store == {("leadtui", "default"): "sk_demo_inactive"}


def test_login_refuses_a_remote_plain_http_server(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", "http://api.example.com") == auth_cli.EXIT_USAGE
    assert "TLS" in term.said
    assert not config_path().exists()


def test_login_without_a_key_saves_nothing(term: Terminal) -> None:
    term.type_key("   ")
    assert term.run("login", "--base-url", URL) == auth_cli.EXIT_USAGE
    assert "No key entered" in term.said


def test_without_a_keyring_login_names_both_alternatives(term: Terminal) -> None:
    keyring.set_keyring(fail.Keyring())
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", URL) == auth_cli.EXIT_NO_STORAGE
    assert "LEADTUI_API_KEY" in term.err.getvalue()
    assert "leadtui login --insecure-storage" in term.err.getvalue()
    assert "Nothing was saved" in term.err.getvalue()
    assert term.prompts == []  # refused before asking for a key it could not keep
    assert not config_path().exists()
    assert not insecure_key_path().exists()


def test_insecure_storage_warns_before_writing_a_0600_file(term: Terminal) -> None:
    keyring.set_keyring(fail.Keyring())

    class WatchingStream(io.StringIO):
        """Notes whether the key file existed when each warning was printed."""

        def __init__(self) -> None:
            super().__init__()
            self.file_existed: list[bool] = []

        def write(self, text: str) -> int:
            if "UNENCRYPTED" in text:
                self.file_existed.append(insecure_key_path().exists())
            return super().write(text)

    term.err = watching = WatchingStream()
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", URL, "--insecure-storage") == auth_cli.EXIT_OK
    assert watching.file_existed == [False]
    path = insecure_key_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "sk_demo_full" in path.read_text()
    assert str(path) in term.out.getvalue()

    assert term.run("auth", "status") == auth_cli.EXIT_OK
    assert "Key:     sk_d…full (from the insecure key file)" in term.out.getvalue()
    assert term.run("logout") == auth_cli.EXIT_OK
    assert not path.exists()


def test_status_reports_where_everything_comes_from(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    term.run("login", "--base-url", URL)
    assert term.run("auth", "status") == auth_cli.EXIT_OK
    lines = term.out.getvalue().splitlines()
    assert lines[0] == "Profile: default (from default)"
    assert lines[1] == f"Server:  {URL} (from profile)"
    assert lines[2] == "Key:     sk_d…full (from the OS keyring)"
    assert lines[3].startswith("Check:   OK. Account Demo Co: 10000 credits")
    assert "sk_demo_full" not in term.said


def test_status_shows_code_and_request_id_of_a_failing_key(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_revoked")
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    assert term.run("auth", "status") == auth_cli.EXIT_CHECK_FAILED
    out = term.out.getvalue()
    assert "(from the environment (LEADTUI_API_KEY))" in out
    assert "Server:  http://127.0.0.1 (from environment)" in out
    assert "Check:   FAILED: Key rejected (401 unauthorized, request id req_" in out
    assert "sk_demo_revoked" not in term.said


def test_status_when_not_signed_in(term: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_PROFILE", "nobody")
    assert term.run("auth", "status") == auth_cli.EXIT_NOT_SIGNED_IN
    out = term.out.getvalue()
    assert "Profile: nobody (from LEADTUI_PROFILE)" in out
    assert "Key:     none saved" in out
    assert "leadtui login" in out


def test_logout_forgets_the_key(term: Terminal, isolated_machine: MemoryKeyring) -> None:
    term.type_key("sk_demo_full")
    term.run("login", "--base-url", URL)
    assert term.run("logout") == auth_cli.EXIT_OK
    assert "removed from the OS keyring" in term.out.getvalue()
    assert isolated_machine.store == {}
    assert term.run("auth", "status") == auth_cli.EXIT_NOT_SIGNED_IN
    # The profile's server is kept for the next login.
    assert load_settings().profile("default").base_url == URL
    assert term.run("logout") == auth_cli.EXIT_OK
    assert "No saved key for profile 'default'" in term.out.getvalue()


def test_a_broken_config_file_is_reported_not_raised(term: Terminal) -> None:
    Path(config_path()).parent.mkdir(parents=True)
    config_path().write_text("theme = [\n")
    assert term.run("auth", "status") == auth_cli.EXIT_USAGE
    assert "cannot read settings" in term.err.getvalue()


def test_a_hanging_keyring_does_not_hang_login(term: Terminal) -> None:
    release = threading.Event()
    keyring.set_keyring(HangingKeyring(release))
    try:
        term.type_key("sk_demo_full")
        ns = build_parser().parse_args(["login", "--base-url", URL])
        started = time.monotonic()
        code = auth_cli.run(
            ns,
            transport=term.transport,
            keystore=KeyStore(timeout=0.1),
            out=term.out,
            err=term.err,
        )
        assert code == auth_cli.EXIT_NO_STORAGE
        assert time.monotonic() - started < 2
        assert "did not answer within 0.1 s" in term.err.getvalue()
        assert "--insecure-storage" in term.err.getvalue()
    finally:
        release.set()
