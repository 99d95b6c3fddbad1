"""Saving settings keeps the user's file: comments, order and layout survive a theme change
(ctrl+t in the app) and a login; only the values that changed move."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.cli import auth as auth_cli
from leadtui.cli.main import build_parser
from leadtui.config.errors import SettingsFileError
from leadtui.config.settings import Settings, save_settings
from leadtui.config.variables import config_path
from leadtui.ui.frame.app import make_app
from leadtui.ui.frame.services import AppDeps
from tests.support.settings_files import load_settings

URL = "http://127.0.0.1"

HAND_WRITTEN = """\
# leadtui settings, kept by hand.
theme = "dark"            # dark at night

spend_budget = 5          # small unlocks go through without asking
download_dir = "~/leads"

# The work account: staging until the launch.
[profiles.work]
base_url = "https://staging.example.com"   # moved in spring
read_only = true

[polling]
fast_seconds = 1.5
"""


def write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


async def test_a_theme_change_and_logins_touch_only_the_changed_values(
    sandbox_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_config(HAND_WRITTEN)
    transport = httpx.ASGITransport(app=sandbox_app)

    def connect(base_url: str, key: str) -> LeadClient:
        return LeadClient(base_url, key, transport=transport)

    deps = AppDeps(load_settings(), save_settings, base_url=URL, connect=connect)
    app = make_app(deps, key="sk_demo_full", key_source="environment")
    async with app.run_test() as pilot:
        await pilot.press("ctrl+t")
        await app.workers.wait_for_complete()
    themed = HAND_WRITTEN.replace('theme = "dark"', 'theme = "light"')
    assert path.read_text() == themed

    def login(*argv: str) -> None:
        ns = build_parser().parse_args(["login", "--base-url", URL, *argv])
        out, err = io.StringIO(), io.StringIO()
        piped = io.StringIO("sk_demo_full\n")
        code = auth_cli.run(ns, transport=transport, out=out, err=err, stdin=piped)
        assert code == 0, err.getvalue()

    # The command line runs its own event loop: from a thread, as from a shell.
    await asyncio.to_thread(login, "--profile", "work")
    moved = themed.replace('"https://staging.example.com"', f'"{URL}"')
    assert path.read_text() == moved

    await asyncio.to_thread(
        login
    )  # the default profile: a new table, after the profiles already there
    assert path.read_text() == moved.replace(
        "read_only = true\n\n", f'read_only = true\n\n[profiles.default]\nbase_url = "{URL}"\n\n'
    )
    settings = load_settings()
    assert (settings.theme, settings.spend_budget) == ("light", 5)
    assert settings.profile("work").read_only is True


def test_a_value_set_back_to_its_default_stays_where_the_user_wrote_it() -> None:
    path = write_config('theme = "light"  # for the projector\nspend_budget = 2\n')
    settings = load_settings()
    settings.theme = "dark"
    settings.spend_budget = 0
    save_settings(settings)
    assert path.read_text() == 'theme = "dark"  # for the projector\nspend_budget = 0\n'


def test_a_layout_tomlkit_cannot_edit_in_place_is_saved_correctly() -> None:
    # A dotted key before a plain one: a new [profiles.x] table must not swallow `theme`.
    write_config('profiles.work.base_url = "https://work.example.com"\ntheme = "light"\n')
    save_settings(load_settings().with_profile("default", base_url=URL))
    again = load_settings()
    assert again.theme == "light"
    assert again.profile("work").base_url == "https://work.example.com"
    assert again.profile("default").base_url == URL


def test_a_symlinked_config_file_is_written_through_its_link(tmp_path: Path) -> None:
    kept = tmp_path / "dotfiles" / "leadtui.toml"
    kept.parent.mkdir()
    kept.write_text("# from my dotfiles\nspend_budget = 1\n")
    config_path().parent.mkdir(parents=True)
    config_path().symlink_to(kept)
    save_settings(Settings(spend_budget=3))
    assert config_path().is_symlink()
    assert kept.read_text() == "# from my dotfiles\nspend_budget = 3\n"


def test_a_config_dir_that_cannot_be_made_is_a_one_line_error() -> None:
    config_path().parent.parent.mkdir(parents=True, exist_ok=True)
    config_path().parent.write_text("")  # a file where the directory should be
    with pytest.raises(SettingsFileError) as caught:
        save_settings(Settings(theme="light"))
    assert str(caught.value) == f"{config_path()}: cannot save settings: File exists (EEXIST)"
