"""`leadtui login / logout / auth status` against the sandbox: the key is checked with
GET /me before anything is saved, stored in the keyring (or, asked for, a 0600 file),
and never printed."""

from __future__ import annotations

import io
import json
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest
from keyring.backends import fail

from leadtui.api.keys import mask_key
from leadtui.cli import auth as auth_cli
from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import build_parser
from leadtui.config.secrets import KeyStore, insecure_key_path
from leadtui.config.variables import config_path
from tests.config.test_secrets import HangingKeyring
from tests.support.memory_keyring import MemoryKeyring
from tests.support.settings_files import load_settings

URL = "http://127.0.0.1"
MASKED = mask_key("sk_demo_full")


class TypingAtATerminal(io.StringIO):
    """stdin at a terminal: the key is read by getpass (replaced by `Terminal.type_key`)."""

    def isatty(self) -> bool:
        return True


class Terminal:
    """Captured stdout/stderr, plus what the user types."""

    def __init__(self, sandbox_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.transport = httpx.ASGITransport(app=sandbox_app)
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.monkeypatch = monkeypatch
        self.prompts: list[str] = []
        self.stdin: io.StringIO = TypingAtATerminal()

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
            ns,
            transport=self.transport,
            out=self.out,
            err=self.err,
            ask=lambda _p: ask,
            stdin=self.stdin,
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
    assert term.run("login", "--base-url", URL) == Exit.OK
    assert isolated_machine.store[("leadtui", "default")] == "sk_demo_full"
    assert load_settings().profile("default").base_url == URL
    assert "sk_demo_full" not in config_path().read_text()
    assert "hidden" in term.prompts[0]
    assert mask_key("sk_demo_full") in term.said
    assert "Demo Co: 10,000 credits, subscription active" in term.said
    assert "OS keyring" in term.said
    assert "sk_demo_full" not in term.said


def test_login_asks_for_the_server_when_it_is_unknown(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    assert term.run("login", ask=URL + "/api/v1/") == Exit.OK
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
    assert term.run("login", "--base-url", URL) == Exit.AUTH
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
    assert term.run("login", "--base-url", URL) == Exit.OK
    assert "access is limited" in term.err.getvalue()
    assert "subscription_inactive" in term.err.getvalue()
    assert isolated_machine.store == {("leadtui", "default"): "sk_demo_inactive"}


def test_login_refuses_a_remote_plain_http_server(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", "http://api.example.com") == Exit.USAGE
    assert "TLS" in term.said
    assert not config_path().exists()


def test_login_without_a_key_saves_nothing(term: Terminal) -> None:
    term.type_key("   ")
    assert term.run("login", "--base-url", URL) == Exit.USAGE
    assert "No key entered" in term.said


def test_without_a_keyring_login_names_both_alternatives(term: Terminal) -> None:
    keyring.set_keyring(fail.Keyring())
    term.type_key("sk_demo_full")
    assert term.run("login", "--base-url", URL) == Exit.USAGE
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
    assert term.run("login", "--base-url", URL, "--insecure-storage") == Exit.OK
    assert watching.file_existed == [False]
    path = insecure_key_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "sk_demo_full" in path.read_text()
    assert str(path) in term.out.getvalue()

    assert term.run("auth", "status") == Exit.OK
    assert f"Key:     {MASKED} (from the insecure key file)" in term.out.getvalue()
    assert term.run("logout") == Exit.OK
    assert not path.exists()


def test_status_reports_where_everything_comes_from(term: Terminal) -> None:
    term.type_key("sk_demo_full")
    term.run("login", "--base-url", URL)
    assert term.run("auth", "status") == Exit.OK
    lines = term.out.getvalue().splitlines()
    assert lines[0] == "Profile: default"
    assert lines[1] == f"Server:  {URL} (from profile)"
    assert lines[2] == f"Key:     {MASKED} (from the OS keyring)"
    assert lines[3].startswith("Check:   OK. Account Demo Co: 10,000 credits")
    assert "sk_demo_full" not in term.said


def test_status_shows_code_and_request_id_of_a_failing_key(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_revoked")
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    assert term.run("auth", "status") == Exit.AUTH
    out = term.out.getvalue()
    assert "(from the environment (LEADTUI_API_KEY))" in out
    assert "Server:  http://127.0.0.1 (from environment)" in out
    assert "Check:   FAILED: Key rejected (401 unauthorized, request id req_" in out
    assert "sk_demo_revoked" not in term.said


def write_profiles(*names: str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text("".join(f'[profiles.{n}]\nbase_url = "{URL}"\n' for n in names))


def test_status_when_not_signed_in(term: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    write_profiles("nobody")
    monkeypatch.setenv("LEADTUI_PROFILE", "nobody")
    assert term.run("auth", "status") == Exit.AUTH
    out = term.out.getvalue()
    assert "Profile: nobody (from LEADTUI_PROFILE)" in out
    assert "Key:     none saved" in out
    assert "leadtui login --profile nobody" not in out  # chosen by the variable, not a flag
    assert "leadtui login" in out


@pytest.mark.parametrize("chosen_by", ["--profile", "LEADTUI_PROFILE"])
def test_status_refuses_a_profile_the_settings_do_not_hold(
    term: Terminal, monkeypatch: pytest.MonkeyPatch, chosen_by: str
) -> None:
    write_profiles("work")
    argv = ["auth", "status"]
    if chosen_by == "--profile":
        argv += ["--profile", "wrok"]
    else:
        monkeypatch.setenv("LEADTUI_PROFILE", "wrok")
    assert term.run(*argv) == Exit.USAGE
    said = term.err.getvalue()
    assert said.startswith(f"{chosen_by}: no profile 'wrok' in {config_path()}")
    assert "(profiles there: 'work')" in said
    assert "`leadtui login --profile wrok`" in said
    assert term.out.getvalue() == ""


def test_logout_forgets_the_key(term: Terminal, isolated_machine: MemoryKeyring) -> None:
    term.type_key("sk_demo_full")
    term.run("login", "--base-url", URL)
    assert term.run("logout") == Exit.OK
    assert "removed from the OS keyring" in term.out.getvalue()
    assert isolated_machine.store == {}
    assert term.run("auth", "status") == Exit.AUTH
    # The profile's server is kept for the next login.
    assert load_settings().profile("default").base_url == URL
    assert term.run("logout") == Exit.OK
    assert "No saved key for profile 'default'" in term.out.getvalue()


def test_a_broken_config_file_is_reported_not_raised(term: Terminal) -> None:
    Path(config_path()).parent.mkdir(parents=True)
    config_path().write_text("theme = [\n")
    assert term.run("auth", "status") == Exit.USAGE
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
            stdin=term.stdin,
        )
        assert code == Exit.USAGE
        assert time.monotonic() - started < 2
        assert "did not answer within 0.1 s" in term.err.getvalue()
        assert "--insecure-storage" in term.err.getvalue()
    finally:
        release.set()


# --- keys that could never be sent, files and directories that cannot be used -----------

SMART_QUOTED = "sk_demo\u201cfull"  # a paste from a word processor: position 8 is not ASCII


def one_line_error(term: Terminal) -> str:
    """What the user read on stderr: exactly one line, no traceback, no key."""
    err = term.err.getvalue()
    assert err.count("\n") == 1, err
    assert "Traceback" not in term.said
    assert "sk_demo" not in term.said
    return err


def test_login_refuses_a_key_that_is_not_printable_ascii(
    term: Terminal, isolated_machine: MemoryKeyring
) -> None:
    term.type_key(SMART_QUOTED)
    assert term.run("login", "--base-url", URL) == Exit.USAGE
    err = one_line_error(term)
    assert "character 8 is not printable ASCII" in err
    assert "Nothing was sent or saved" in err
    assert isolated_machine.store == {}
    assert not config_path().exists()


def test_status_refuses_an_environment_key_that_is_not_printable_ascii(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", SMART_QUOTED)
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    assert term.run("auth", "status") == Exit.USAGE
    assert one_line_error(term).startswith("LEADTUI_API_KEY: character 8 is not printable ASCII")


@pytest.mark.parametrize("where", ["keyring", "insecure file"])
def test_status_refuses_a_saved_key_that_is_not_printable_ascii(
    term: Terminal, isolated_machine: MemoryKeyring, where: str
) -> None:
    if where == "keyring":
        isolated_machine.store[("leadtui", "default")] = SMART_QUOTED
    else:
        keyring.set_keyring(fail.Keyring())
        insecure_key_path().parent.mkdir(parents=True)
        insecure_key_path().write_text(json.dumps({"keys": {"default": SMART_QUOTED}}))
    assert term.run("auth", "status") == Exit.USAGE
    err = one_line_error(term)
    assert "the key saved for profile 'default' cannot be used: character 8" in err
    assert "sign in again" in err
    # Logging out still removes it.
    assert term.run("logout") == Exit.OK
    assert term.run("auth", "status") == Exit.AUTH


def block_the_state_dir() -> Path:
    """A file where the state dir should be, as a mistaken `touch` or a sync tool leaves it."""
    blocked = insecure_key_path().parent
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("")
    return blocked


def test_insecure_login_where_the_state_dir_cannot_be_made(term: Terminal) -> None:
    keyring.set_keyring(fail.Keyring())
    blocked = block_the_state_dir()
    term.type_key("sk_demo_full")
    code = term.run("login", "--base-url", URL, "--insecure-storage")
    assert code == Exit.USAGE
    err = one_line_error(term)
    assert (
        err
        == f"{blocked}: cannot create the state directory: a file is in the way (not a directory)\n"
    )
    assert "UNENCRYPTED" not in term.said  # refused before warning about a file it cannot write
    assert blocked.read_text() == ""


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            b'theme = "dark"\n# caf\xe9\n',
            ", line 2: cannot read settings: not valid UTF-8 (byte 0xe9)",
        ),
        (
            b"x = " + b"[" * 50_000 + b"]" * 50_000,
            ": cannot read settings: nested more than 8 levels",
        ),
        (
            b'download_dir = "/srv/a\\u0000b"\n',
            "download_dir: Value error, character 7 is a control",
        ),
    ],
    ids=["invalid-utf8", "deeply-nested", "nul-in-download-dir"],
)
def test_a_broken_config_file_is_one_line_and_exit_2(
    term: Terminal, content: bytes, expected: str
) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_bytes(content)
    for command in (("auth", "status"), ("login", "--base-url", URL)):
        assert term.run(*command) == Exit.USAGE
        err = one_line_error(term)
        assert err.startswith(str(config_path()))
        assert expected in err


def test_a_fifo_as_config_file_is_refused_without_opening_it(term: Terminal) -> None:
    config_path().parent.mkdir(parents=True)
    os.mkfifo(config_path())  # opening it to read would wait for a writer for ever
    assert term.run("auth", "status") == Exit.USAGE
    assert one_line_error(term) == (
        f"{config_path()}: cannot read settings: is a FIFO (named pipe), not a regular file\n"
    )


def test_a_variable_that_is_not_json_is_one_line_and_exit_2(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_PROFILES", "{bad json")
    assert term.run("auth", "status") == Exit.USAGE
    assert one_line_error(term).startswith("LEADTUI_PROFILES: not valid JSON: Expecting property")


def test_anything_unexpected_is_one_line_naming_its_type(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_terminal(prompt: str = "") -> str:
        raise RuntimeError("the terminal went away while reading sk_demo_full")

    monkeypatch.setattr("getpass.getpass", broken_terminal)
    assert term.run("login", "--base-url", URL) == Exit.UNEXPECTED
    assert one_line_error(term) == "leadtui login: unexpected error (RuntimeError).\n"


# --- what auth status says --------------------------------------------------------------


def test_status_names_where_the_profile_comes_from_only_when_it_is_chosen(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_profiles("work")
    term.run("auth", "status")
    assert term.out.getvalue().splitlines()[0] == "Profile: default"
    term.run("auth", "status", "--profile", "work")
    assert term.out.getvalue().splitlines()[0] == "Profile: work (from --profile)"
    monkeypatch.setenv("LEADTUI_PROFILE", "work")
    term.run("auth", "status")
    assert term.out.getvalue().splitlines()[0] == "Profile: work (from LEADTUI_PROFILE)"


def test_after_logout_status_suggests_the_login_that_works_here(term: Terminal) -> None:
    write_profiles("work")
    term.type_key("sk_demo_full")
    term.run("login", "--base-url", URL)
    term.run("logout")
    assert term.run("auth", "status") == Exit.AUTH
    assert "Not signed in. Run `leadtui login`, or set LEADTUI_API_KEY" in term.out.getvalue()
    assert term.run("auth", "status", "--profile", "work") == Exit.AUTH
    assert "Run `leadtui login --profile work`," in term.out.getvalue()

    keyring.set_keyring(fail.Keyring())  # the same machine seen from a headless session
    assert term.run("auth", "status") == Exit.AUTH
    assert "Run `leadtui login --insecure-storage`," in term.out.getvalue()


# --- the spend policy, --json, a key piped in ---------------------------------------------


def test_status_says_a_budget_set_only_in_the_environment_is_so(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    assert term.run("auth", "status") == Exit.OK
    assert term.out.getvalue().splitlines()[-1] == "Spends:  every spend is asked (no budget)"

    monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "250")
    assert term.run("auth", "status") == Exit.OK
    assert term.out.getvalue().splitlines()[-1] == (
        "Spends:  up to 250 credits without asking; budget set only in the environment "
        "(LEADTUI_* variable)"
    )

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text("spend_budget = 250\n")  # the file says the same: not env-only
    assert term.run("auth", "status", "--json") == Exit.OK
    policy = json.loads(term.out.getvalue())["spend_policy"]
    assert policy == {
        "read_only": False,
        "spend_budget": 250,
        "budget_source": "settings file",
        "budget_only_in_environment": False,
    }


def test_status_json_is_one_document_with_the_key_masked(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "40")
    monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    assert term.run("auth", "status", "--json") == Exit.OK
    doc = json.loads(term.out.getvalue())
    assert doc["profile"] == {"name": "default", "source": "default"}
    assert doc["server"] == {"base_url": URL, "source": "environment"}
    assert doc["key"] == {"masked": MASKED, "source": "environment"}
    assert doc["spend_policy"]["read_only"] is True
    assert doc["spend_policy"]["budget_only_in_environment"] is True
    assert doc["signed_in"] is True
    assert doc["check"]["ok"] is True
    assert doc["check"]["account"] == "Demo Co"
    assert doc["check"]["credits"] == 10_000
    assert term.err.getvalue() == ""
    assert "sk_demo_full" not in term.said


def test_status_json_when_not_signed_in_or_failing(
    term: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert term.run("auth", "status", "--json") == Exit.AUTH
    doc = json.loads(term.out.getvalue())
    assert doc["signed_in"] is False
    assert doc["key"] is None
    assert doc["check"] is None
    assert "leadtui login" in doc["hint"]

    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_revoked")
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    assert term.run("auth", "status", "--json") == Exit.AUTH
    check = json.loads(term.out.getvalue())["check"]
    assert check["ok"] is False
    assert check["error"]["code"] == "unauthorized"
    assert check["error"]["request_id"].startswith("req_")

    assert term.run("auth", "status", "--json", "--profile", "wrok") == Exit.USAGE
    error = json.loads(term.out.getvalue())["error"]
    assert error["code"] == "unknown_profile"
    assert "no profile 'wrok'" in error["message"]
    assert term.err.getvalue() == ""


def test_login_reads_a_piped_key_without_getpass_or_its_warning(
    term: Terminal, isolated_machine: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_getpass(prompt: str = "") -> str:
        raise AssertionError("getpass is for a terminal")

    monkeypatch.setattr("getpass.getpass", no_getpass)
    term.stdin = io.StringIO("sk_demo_full\n")  # `echo $KEY | leadtui login`: not a terminal
    # filterwarnings = error: a GetPassWarning would fail the test here.
    assert term.run("login", "--base-url", URL) == Exit.OK
    assert isolated_machine.store[("leadtui", "default")] == "sk_demo_full"
    assert "echoed" not in term.err.getvalue()
    assert "Warning" not in term.err.getvalue()
    assert "sk_demo_full" not in term.said
