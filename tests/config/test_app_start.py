"""What the app does with settings, keys and a state dir it cannot use: before the first
frame it refuses to start with one line on stderr (exit 2); a saved key that could never be
sent opens sign-in with the reason."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.cli.main import build_parser
from leadtui.config.profile import resolve_profile
from leadtui.config.secrets import KeyStore
from leadtui.config.settings import save_settings, state_dir
from leadtui.config.variables import config_path
from leadtui.ui.frame import launch
from leadtui.ui.frame.app import make_app
from leadtui.ui.frame.services import AppDeps
from tests.support.memory_keyring import MemoryKeyring
from tests.support.settings_files import load_settings
from tests.ui.screen import notices, screen_text, wait_until

URL = "http://127.0.0.1"


def smart_quoted_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo\u201cfull")


def state_dir_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    state_dir().parent.mkdir(parents=True, exist_ok=True)
    state_dir().write_text("")


def profiles_not_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_PROFILES", "{bad json")


def config_is_a_fifo(monkeypatch: pytest.MonkeyPatch) -> None:
    config_path().parent.mkdir(parents=True)
    os.mkfifo(config_path())


def config_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_bytes(b"theme = 'dark' # caf\xe9\n")


def profile_mistyped(monkeypatch: pytest.MonkeyPatch) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text("[profiles.safe]\nread_only = true\n")
    monkeypatch.setenv("LEADTUI_PROFILE", "saef")


@pytest.mark.parametrize(
    ("breakage", "said"),
    [
        (smart_quoted_key, "LEADTUI_API_KEY: character 8 is not printable ASCII"),
        (state_dir_blocked, "cannot create the state directory: a file is in the way"),
        (profiles_not_json, "LEADTUI_PROFILES: not valid JSON"),
        (config_is_a_fifo, "cannot read settings: is a FIFO (named pipe), not a regular file"),
        (config_not_utf8, ", line 1: cannot read settings: not valid UTF-8 (byte 0xe9)"),
        (profile_mistyped, "LEADTUI_PROFILE: no profile 'saef' in "),
    ],
    ids=[
        "key-not-ascii",
        "state-dir-blocked",
        "profiles-not-json",
        "fifo",
        "not-utf8",
        "unknown-profile",
    ],
)
def test_the_app_refuses_to_start_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    breakage: Callable[[pytest.MonkeyPatch], None],
    said: str,
) -> None:
    breakage(monkeypatch)
    assert launch.run(build_parser().parse_args([])) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("leadtui: ")
    assert err.count("\n") == 1
    assert said in err
    assert "sk_demo" not in err


async def test_a_saved_key_that_could_never_be_sent_opens_sign_in_with_the_reason(
    sandbox_app: Any, isolated_machine: MemoryKeyring, tmp_path: Path
) -> None:
    isolated_machine.store[("leadtui", "default")] = "sk_demo\u201cfull"
    settings = load_settings().with_profile("default", base_url=URL)
    keystore = KeyStore(insecure_path=tmp_path / "insecure-keys.json")
    transport = httpx.ASGITransport(app=sandbox_app)
    deps = AppDeps(
        settings,
        save_settings,
        base_url=URL,
        connect=lambda base_url, key: LeadClient(base_url, key, transport=transport),
        keystore=keystore,
        load_credentials=lambda: resolve_profile(settings=settings, keystore=keystore),
    )
    app = make_app(deps)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "cannot be used" in screen_text(app))
        text = screen_text(app)
    assert "the OS keyring: the key saved for profile 'default' cannot be used:" in text
    assert "character 8 is not printable ASCII; sign in again to replace it" in text
    assert "Sign in to the Lead Data API" in text
    assert "sk_demo" not in text


async def test_a_theme_that_cannot_be_saved_is_told_and_the_app_goes_on(
    sandbox_app: Any,
) -> None:
    config_path().parent.parent.mkdir(parents=True, exist_ok=True)
    config_path().parent.write_text("")  # a file where the config dir should be
    transport = httpx.ASGITransport(app=sandbox_app)
    deps = AppDeps(
        load_settings(),
        save_settings,
        base_url=URL,
        connect=lambda base_url, key: LeadClient(base_url, key, transport=transport),
    )
    app = make_app(deps, key="sk_demo_full", key_source="environment")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+t")
        await app.workers.wait_for_complete()
        toasts = notices(app)
        assert toasts == [
            ("Settings not saved", f"{config_path()}: cannot save settings: File exists (EEXIST)")
        ]
        assert app.is_running
        assert app.settings.theme == "light"


async def test_the_launch_takes_read_only_from_the_environment_as_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    monkeypatch.setenv("LEADTUI_BASE_URL", "http://127.0.0.1:9")  # nothing listens: no /me
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    app = launch.build_app(build_parser().parse_args([]))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.started)
        await wait_until(pilot, lambda: "read-only" in screen_text(app).splitlines()[0])
    assert app.read_only
