"""Settings: the TOML file round-trips, LEADTUI_* overrides it, and no key ever lands in it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from leadtui.config.errors import ConfigError, SettingsEnvironmentError, SettingsFileError
from leadtui.config.profile import profile_name
from leadtui.config.settings import (
    REQUESTS_PER_SETTLED_TICK,
    Polling,
    Settings,
    save_settings,
)
from leadtui.config.variables import config_path
from tests.support.settings_files import load_settings


def test_defaults_when_no_file_exists() -> None:
    settings = load_settings()
    assert settings.theme == "dark"
    assert settings.spend_budget == 0
    assert settings.read_only is False
    assert settings.profiles == {}
    assert settings.profile("default").base_url is None
    assert config_path() == Path(os.environ["XDG_CONFIG_HOME"]) / "leadtui" / "config.toml"


def test_round_trip_keeps_every_choice() -> None:
    settings = load_settings().with_profile("work", base_url="https://api.example.com")
    settings.theme = "light"
    settings.spend_budget = 25
    settings.keymap = {"unlock": "u,ctrl+u"}
    settings.polling = Polling(fast_seconds=1.5, slow_seconds=30)
    settings.download_dir = Path("/srv/leads")
    path = save_settings(settings)

    again = load_settings()
    assert again == settings
    assert again.profile("work").base_url == "https://api.example.com"
    assert path == config_path()
    # Written atomically: no temporary file is left next to it.
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]


def test_only_changed_settings_are_written() -> None:
    settings = load_settings()
    settings.theme = "light"
    save_settings(settings)
    assert config_path().read_text().strip() == 'theme = "light"'


def test_config_file_env_var_moves_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere" / "leadtui.toml"
    monkeypatch.setenv("LEADTUI_CONFIG_FILE", str(elsewhere))
    settings = load_settings()
    settings.spend_budget = 3
    save_settings(settings)
    assert elsewhere.read_text().strip() == "spend_budget = 3"
    assert load_settings().spend_budget == 3


def test_environment_overrides_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text(
        'theme = "dark"\nspend_budget = 5\n[profiles.work]\nbase_url = "https://a.example"\n'
    )
    monkeypatch.setenv("LEADTUI_THEME", "light")
    monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    monkeypatch.setenv("LEADTUI_POLLING__FAST_SECONDS", "1")
    monkeypatch.setenv("LEADTUI_PROFILES__WORK__SPEND_BUDGET", "9")
    settings = load_settings()
    assert settings.theme == "light"
    assert settings.read_only is True
    assert settings.polling.fast_seconds == 1
    assert settings.spend_budget == 5
    assert settings.profile("work").base_url == "https://a.example"
    assert settings.profile("work").spend_budget == 9


def test_saving_does_not_make_environment_overrides_permanent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text('theme = "dark"\n')
    monkeypatch.setenv("LEADTUI_THEME", "light")
    monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    settings = load_settings()
    settings.spend_budget = 7
    save_settings(settings)
    monkeypatch.delenv("LEADTUI_THEME")
    monkeypatch.delenv("LEADTUI_READ_ONLY")
    again = load_settings()
    assert (again.theme, again.read_only, again.spend_budget) == ("dark", False, 7)


def test_no_api_key_is_ever_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_live_never_in_toml_123456")
    monkeypatch.setenv("LEADTUI_BASE_URL", "https://api.example.com")
    settings = load_settings().with_profile("default", base_url="https://api.example.com")
    save_settings(settings)
    text = config_path().read_text()
    assert "sk_live_never_in_toml_123456" not in text
    assert "key" not in text.lower()


@pytest.mark.parametrize(
    "content", ['api_key = "sk_live_x"\n', '[profiles.default]\napi_key = "sk_live_x"\n']
)
def test_a_key_pasted_into_the_file_is_refused(content: str) -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text(content)
    with pytest.raises(SettingsFileError, match="leadtui login") as caught:
        load_settings()
    assert "sk_live_x" not in str(caught.value)


def test_invalid_values_name_the_setting() -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text('theme = "purple"\nspend_budget = -1\n')
    with pytest.raises(SettingsFileError) as caught:
        load_settings()
    assert "theme" in str(caught.value)
    assert "spend_budget" in str(caught.value)


def test_broken_toml_is_reported_with_its_path() -> None:
    config_path().parent.mkdir(parents=True)
    config_path().write_text("theme = \n")
    with pytest.raises(SettingsFileError, match=str(config_path())):
        load_settings()


def test_profile_selection_order(monkeypatch: pytest.MonkeyPatch) -> None:
    assert profile_name(None) == ("default", "default")
    monkeypatch.setenv("LEADTUI_PROFILE", "staging")
    assert profile_name(None) == ("staging", "LEADTUI_PROFILE")
    assert profile_name("work") == ("work", "--profile")


def test_profile_overrides_the_spend_policy() -> None:
    settings = Settings(spend_budget=10).with_profile("big", spend_budget=500)
    settings = settings.with_profile("safe", read_only=True)
    assert settings.spend_policy("default").spend_budget == 10
    assert settings.spend_policy("big").spend_budget == 500
    assert settings.spend_policy("safe").read_only is True
    settings.read_only = True
    # A profile can add read-only, never lift the global switch.
    assert settings.with_profile("big", read_only=False).spend_policy("big").read_only is True


def test_settled_polling_stays_within_twelve_requests_a_minute() -> None:
    polling = Settings().polling
    assert polling.fast_seconds == pytest.approx(2.0)
    assert 60 / polling.slow_seconds * REQUESTS_PER_SETTLED_TICK <= 12
    with pytest.raises(ValueError, match="slow_seconds"):
        Polling(slow_seconds=2)


def test_config_file_is_private() -> None:
    save_settings(Settings(theme="light"))
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600


# --- files and variables that cannot be settings: one typed, one-line error each ---------


def write_config(content: bytes) -> Path:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_bytes(content)
    return config_path()


def refused(error: type[ConfigError] = SettingsFileError) -> ConfigError:
    with pytest.raises(error) as caught:
        load_settings()
    assert "\n" not in str(caught.value)
    assert caught.value.__cause__ is None
    return caught.value


def test_invalid_utf8_names_the_file_and_the_line() -> None:
    path = write_config(b'theme = "dark"\n\n# caf\xe9 au lait\n')
    error = refused()
    assert (error.where, error.line) == (str(path), 3)
    assert str(error) == f"{path}, line 3: cannot read settings: not valid UTF-8 (byte 0xe9)"


@pytest.mark.parametrize("depth", [9, 100_000])
def test_deeply_nested_toml_is_refused(depth: int) -> None:
    write_config(b"x = " + b"[" * depth + b"]" * depth + b"\n")
    assert refused().problem == "cannot read settings: nested more than 8 levels deep"


def test_a_fifo_is_never_opened() -> None:
    config_path().parent.mkdir(parents=True)
    os.mkfifo(config_path())
    assert refused().problem == ("cannot read settings: is a FIFO (named pipe), not a regular file")


def test_a_directory_or_a_huge_file_is_not_a_config_file() -> None:
    config_path().mkdir(parents=True)
    assert refused().problem == "cannot read settings: is a directory, not a regular file"
    config_path().rmdir()
    write_config(b"# " + b"x" * (2 * 1024 * 1024))
    assert "larger than 1024 KiB" in refused().problem


def test_a_table_variable_that_is_not_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_PROFILES", "{bad json")
    error = refused(SettingsEnvironmentError)
    assert error.where == "LEADTUI_PROFILES"
    assert error.problem.startswith("not valid JSON: Expecting property name")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("/srv/a\x00b", "character 7 is a control character"),  # NUL: fails only when writing
        ("/srv/\x1b[31mred", "character 6 is a control character"),
        ("  ", "is empty"),
    ],
)
def test_download_dir_is_checked_on_load(
    monkeypatch: pytest.MonkeyPatch, value: str, problem: str
) -> None:
    if "\x00" not in value:  # an environment cannot hold a NUL
        monkeypatch.setenv("LEADTUI_DOWNLOAD_DIR", value)
        error = refused(SettingsEnvironmentError)
        assert error.where == "LEADTUI_DOWNLOAD_DIR"
        assert f"download_dir: Value error, {problem}" in error.problem
        monkeypatch.delenv("LEADTUI_DOWNLOAD_DIR")
    write_config(f"download_dir = {json.dumps(value)}\n".encode())
    assert f"download_dir: Value error, {problem}" in str(refused())
    with pytest.raises(ValueError, match=problem):
        Settings().download_dir = Path(value)


def test_a_usual_download_dir_is_kept_as_written() -> None:
    write_config(b'download_dir = "~/Downloads/leads"\n')
    assert load_settings().download_dir == Path("~/Downloads/leads")
