"""`read_settings()` (for commands that only read settings, without pydantic-settings) finds
exactly what `load_settings()` finds: the same values, the same one-line errors, and, once a
LEADTUI_* setting is set, the full loader's own answer."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic_settings import EnvSettingsSource

from leadtui.config.errors import ConfigError
from leadtui.config.settings import Settings, config_path, load_settings
from leadtui.config.settings_model import SettingsModel, read_settings, setting_variables

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
def test_the_file_alone_reads_as_the_full_loader_reads_it(text: str | None) -> None:
    write_config(text)
    read = read_settings()
    assert type(read) is SettingsModel  # the light path: no pydantic-settings involved
    assert read.model_dump() == load_settings().model_dump()


@pytest.mark.parametrize("text", INVALID_FILES.values(), ids=INVALID_FILES.keys())
def test_a_broken_file_is_refused_in_the_full_loaders_words(text: str) -> None:
    write_config(text)
    with pytest.raises(ConfigError) as full:
        load_settings()
    with pytest.raises(ConfigError) as read:
        read_settings()
    assert type(read.value) is type(full.value)
    assert str(read.value) == str(full.value)


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
def test_a_setting_in_the_environment_is_read_by_the_full_loader(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    value: str,
    check: Callable[[SettingsModel], bool],
) -> None:
    write_config('theme = "dark"\n[profiles.work]\nbase_url = "https://file.example.com"\n')
    monkeypatch.setenv(name, value)
    read = read_settings()
    assert isinstance(read, Settings)
    assert check(read)
    assert read.model_dump() == load_settings().model_dump()


def test_a_broken_setting_in_the_environment_is_refused_as_the_full_loader_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_KEYMAP", "{not json")
    with pytest.raises(ConfigError) as full:
        load_settings()
    with pytest.raises(ConfigError) as read:
        read_settings()
    assert str(read.value) == str(full.value)


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


@pytest.mark.parametrize("name", NAMES)
def test_the_variables_counted_as_settings_are_those_pydantic_settings_reads(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    field = name.lower().removeprefix("leadtui_").split("__")[0]
    monkeypatch.setenv(name, "true" if "__" in name else VALUES.get(field, "x"))
    read_by_pydantic_settings = EnvSettingsSource(Settings)()
    assert bool(setting_variables()) == bool(read_by_pydantic_settings)
