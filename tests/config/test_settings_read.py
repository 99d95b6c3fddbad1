"""One settings reader: `load_settings()` reads the file under the LEADTUI_* variables of
the process or of a given environment, names the variable (or the file and key) behind a
value it refuses, and the first frame's quick look (`config/looks.py`) reads a part of the
same settings, never something else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict

from leadtui.config.errors import ConfigError, SettingsEnvironmentError, SettingsFileError
from leadtui.config.looks import first_frame_looks
from leadtui.config.settings import SETTING_NAMES, Settings
from leadtui.config.variables import config_path, setting_variables
from tests.support.settings_files import load_settings

VALID_FILES = {
    "no-file": None,
    "empty": "",
    "everything": (
        'theme = "light"\n'
        "spend_budget = 25\n"
        "read_only = false\n"
        'download_dir = "~/leads"\n'
        "notify_bell = false\n"
        "notify_desktop = true\n"
        "[keymap]\n"
        'unlock = "u,ctrl+u"\n'
        "[polling]\n"
        "fast_seconds = 1.5\n"
        "slow_seconds = 30\n"
        "[profiles.work]\n"
        'base_url = "https://api.example.com"\n'
        "spend_budget = 500\n"
        "[profiles.ci]\n"
        "read_only = true\n"
    ),
    "integral-float-and-lax-types": "spend_budget = 5.0\npolling = { fast_seconds = 3 }\n",
}

INVALID_FILES = {
    "bad-toml": "spend_budget = [",
    "unknown-setting": 'colour = "red"\n',
    "wrong-type": 'theme = "blue"\nspend_budget = -1\n',
    "unknown-profile-member": '[profiles.work]\nurl = "https://api.example.com"\n',
    "fast-slower-than-slow": "[polling]\nfast_seconds = 90\nslow_seconds = 30\n",
    "control-character-in-download-dir": 'download_dir = "/srv/a\\u0001b"\n',
    "pasted-key": '[profiles.default]\napi_key = "sk_live_x"\n',
}


def write_config(text: str | None) -> None:
    if text is None:
        return
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(text)


@pytest.mark.parametrize("text", VALID_FILES.values(), ids=VALID_FILES.keys())
def test_the_first_frame_reads_a_part_of_the_settings_not_another_reading(
    text: str | None,
) -> None:
    write_config(text)
    settings = load_settings()
    looks = first_frame_looks()
    assert (looks.theme, looks.keymap) == (settings.theme, settings.keymap)


@pytest.mark.parametrize("text", INVALID_FILES.values(), ids=INVALID_FILES.keys())
def test_a_broken_file_is_refused_in_one_line_and_the_first_frame_keeps_its_defaults(
    text: str,
) -> None:
    write_config(text)
    with pytest.raises(SettingsFileError) as refused:
        load_settings()
    assert "\n" not in str(refused.value)
    assert str(config_path()) in refused.value.where
    assert first_frame_looks().keymap == {}


@pytest.mark.parametrize(
    ("name", "value", "check"),
    [
        ("LEADTUI_THEME", "light", lambda s: s.theme == "light"),
        ("leadtui_read_only", "true", lambda s: s.read_only is True),
        ("LEADTUI_POLLING__FAST_SECONDS", "1", lambda s: s.polling.fast_seconds == 1),
        (
            "LEADTUI_PROFILES__WORK__BASE_URL",
            "https://env.example.com",
            lambda s: s.profile("work").base_url == "https://env.example.com",
        ),
    ],
)
def test_a_setting_in_the_environment_wins_over_the_file_and_reads_the_same_when_passed(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    value: str,
    check: Callable[[Settings], bool],
) -> None:
    write_config('theme = "dark"\n[profiles.work]\nbase_url = "https://file.example.com"\n')
    passed = load_settings(environ={name: value})
    monkeypatch.setenv(name, value)
    read = load_settings()
    assert check(read)
    assert read.model_dump() == passed.model_dump()


@pytest.mark.parametrize(
    ("variables", "where", "key"),
    [
        ({"LEADTUI_SPEND_BUDGET": "-3"}, "LEADTUI_SPEND_BUDGET", "spend_budget"),
        ({"leadtui_theme": "blue"}, "leadtui_theme", "theme"),
        (
            {"LEADTUI_POLLING__FAST_SECONDS": "0.1"},
            "LEADTUI_POLLING__FAST_SECONDS",
            "polling.fast_seconds",
        ),
        ({"LEADTUI_POLLING__FAST_SECONDS": "90"}, "LEADTUI_POLLING__FAST_SECONDS", "polling"),
        (
            {"LEADTUI_PROFILES": '{"work": {"read_only": "maybe"}}'},
            "LEADTUI_PROFILES",
            "profiles.work.read_only",
        ),
    ],
)
def test_a_bad_variable_is_named_not_the_file(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], where: str, key: str
) -> None:
    write_config("spend_budget = 5\n")
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsEnvironmentError) as refused:
        load_settings()
    assert refused.value.where == where
    assert refused.value.problem.startswith(f"invalid settings: {key}: ")


def test_a_bad_value_on_file_names_the_file_and_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config("spend_budget = -1\n")
    monkeypatch.setenv("LEADTUI_THEME", "light")  # a good variable beside it is not blamed
    with pytest.raises(SettingsFileError) as refused:
        load_settings()
    assert refused.value.where == str(config_path())
    assert refused.value.problem.startswith("invalid settings: spend_budget: ")


def test_a_broken_setting_in_the_environment_names_its_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_KEYMAP", "{not json")
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert refused.value.where == "LEADTUI_KEYMAP"
    assert first_frame_looks().keymap == {}


NAMES = [
    "LEADTUI_API_KEY",
    "LEADTUI_BASE_URL",
    "LEADTUI_PROFILE",
    "LEADTUI_CONFIG_FILE",
    "LEADTUI_THEMES",
    "LEADTUI_POLLINGFAST",
    "LEADTUI_THEME",
    "leadtui_Theme",
    "LEADTUI_SPEND_BUDGET",
    "LEADTUI_READ_ONLY",
    "LEADTUI_DOWNLOAD_DIR",
    "LEADTUI_NOTIFY_BELL",
    "LEADTUI_NOTIFY_DESKTOP",
    "LEADTUI_KEYMAP",
    "LEADTUI_POLLING",
    "LEADTUI_POLLING__FAST_SECONDS",
    "LEADTUI_PROFILES",
    "LEADTUI_PROFILES__WORK__READ_ONLY",
]
VALUES = {
    "theme": "light",
    "spend_budget": "3",
    "read_only": "true",
    "download_dir": "/srv/leads",
    "notify_bell": "false",
    "notify_desktop": "true",
    "keymap": "{}",
    "polling": "{}",
    "profiles": "{}",
}


class ReadByPydanticSettings(Settings, BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LEADTUI_", env_nested_delimiter="__")


@pytest.mark.parametrize("name", NAMES)
def test_the_variables_counted_as_settings_are_those_pydantic_settings_reads(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    field = name.lower().removeprefix("leadtui_").split("__")[0]
    monkeypatch.setenv(name, "true" if "__" in name else VALUES.get(field, "x"))
    read_by_pydantic_settings = EnvSettingsSource(ReadByPydanticSettings)()
    assert bool(setting_variables(SETTING_NAMES)) == bool(read_by_pydantic_settings)
