"""The one resolver of a profile: the server (flag, environment, profile), the key
(environment, keyring, key file), the policy and the folder, with one precedence; a profile
name the settings do not hold is refused."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from pydantic import SecretStr

from leadtui.config.errors import InvalidApiKey
from leadtui.config.profile import UnknownProfile, resolve_profile
from leadtui.config.secrets import KeySource, KeyStore, KeyStoreError, UnusableStoredKey
from leadtui.config.settings import Settings
from leadtui.config.variables import config_path
from tests.support.memory_keyring import MemoryKeyring

SAVED = SecretStr("sk_live_saved_0000000000")
SETTINGS = Settings().with_profile("default", base_url="https://saved.example.com")


def test_nothing_saved_needs_sign_in() -> None:
    creds = resolve_profile(settings=Settings())
    assert creds.name == "default"
    assert creds.needs_sign_in
    assert (creds.base_url, creds.key, creds.key_source, creds.key_masked) == (
        None,
        None,
        None,
        None,
    )


def test_saved_profile_uses_toml_url_and_keyring_key() -> None:
    KeyStore().store("default", SAVED)
    creds = resolve_profile(settings=SETTINGS)
    assert not creds.needs_sign_in
    assert creds.base_url == "https://saved.example.com"
    assert creds.base_url_source == "profile"
    assert creds.key == SAVED
    assert creds.key_source == "keyring"
    assert creds.key_masked == "sk_l…0000"
    assert "sk_live_saved" not in repr(creds)


def test_environment_wins_over_the_saved_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    KeyStore().store("default", SAVED)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_live_from_env_1111111")
    monkeypatch.setenv("LEADTUI_BASE_URL", "https://env.example.com")
    creds = resolve_profile(settings=SETTINGS)
    assert creds.key_source is KeySource.ENVIRONMENT
    assert creds.key == SecretStr("sk_live_from_env_1111111")
    assert (creds.base_url, creds.base_url_source) == ("https://env.example.com", "environment")


def test_env_key_alone_keeps_the_profile_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_live_from_env_1111111")
    creds = resolve_profile(settings=SETTINGS)
    assert creds.key_source == "environment"
    assert creds.base_url == "https://saved.example.com"


def test_profile_from_flag_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SETTINGS.with_profile("work", base_url="https://work.example.com")
    KeyStore().store("work", SecretStr("sk_live_work_2222222222"))
    monkeypatch.setenv("LEADTUI_PROFILE", "work")
    creds = resolve_profile(settings=settings)
    assert (creds.name, creds.base_url) == ("work", "https://work.example.com")
    assert creds.key_masked == "…2222"
    flagged = resolve_profile("default", settings=settings)
    assert (flagged.name, flagged.key) == ("default", None)


def test_insecure_file_is_used_without_a_keyring() -> None:
    keyring.set_keyring(fail.Keyring())
    KeyStore().store_insecure("default", SAVED, warn=lambda _t: None)
    creds = resolve_profile(settings=SETTINGS)
    assert creds.key_source == "insecure file"
    assert creds.key == SAVED


SMART_QUOTED = "sk_live\u201csaved_0000000000"  # a paste from a word processor


def never_says_the_key(error: BaseException) -> None:
    said = "".join([str(error), repr(error), repr(error.args), repr(vars(error))])
    assert "sk_live" not in said
    assert "\u201c" not in said
    assert error.__cause__ is None


def test_an_environment_key_that_is_not_printable_ascii_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", SMART_QUOTED)
    with pytest.raises(InvalidApiKey) as caught:
        resolve_profile(settings=SETTINGS)
    assert str(caught.value) == (
        "LEADTUI_API_KEY: character 8 is not printable ASCII; nothing was sent"
    )
    never_says_the_key(caught.value)


def test_a_saved_key_that_is_not_printable_ascii_asks_for_a_new_sign_in(
    isolated_machine: MemoryKeyring,
) -> None:
    isolated_machine.store[("leadtui", "default")] = SMART_QUOTED
    with pytest.raises(UnusableStoredKey) as caught:
        resolve_profile(settings=SETTINGS)
    # The TUI opens sign-in on a KeyStoreError; the command line exits 2 on an InvalidApiKey.
    assert isinstance(caught.value, KeyStoreError)
    assert isinstance(caught.value, InvalidApiKey)
    assert str(caught.value) == (
        "the OS keyring: the key saved for profile 'default' cannot be used: character 8 is "
        "not printable ASCII; sign in again to replace it"
    )
    never_says_the_key(caught.value)


# --- one precedence for everything else ----------------------------------------------------


def test_the_flag_wins_over_the_environment_for_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_BASE_URL", "https://env.example.com")
    resolved = resolve_profile(base_url="https://flag.example.com", settings=SETTINGS)
    assert (resolved.base_url, resolved.base_url_source) == (
        "https://flag.example.com",
        "--base-url",
    )


def test_a_profile_not_on_file_is_refused_naming_where_it_came_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(UnknownProfile) as caught:
        resolve_profile("wrok", settings=SETTINGS)
    assert str(caught.value).startswith(f"--profile: no profile 'wrok' in {config_path()}")
    assert caught.value.code == "unknown_profile"
    monkeypatch.setenv("LEADTUI_PROFILE", "wrok")
    with pytest.raises(UnknownProfile, match=r"^LEADTUI_PROFILE: no profile 'wrok'"):
        resolve_profile(settings=SETTINGS)
    # Only login, which creates a profile, lets a new name through.
    assert resolve_profile(settings=SETTINGS, must_exist=False, read_key=False).name == "wrok"


def write_settings(text: str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(text)


def test_read_only_and_budget_from_file_and_variables_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_settings("spend_budget = 10\n[profiles.work]\nspend_budget = 30\n")
    assert resolve_profile(read_key=False).policy.spend_budget == 10
    work = resolve_profile("work", read_key=False)
    assert (work.policy.spend_budget, work.budget_source, work.policy.read_only) == (
        30,
        "settings file",
        False,
    )

    monkeypatch.setenv("LEADTUI_READ_ONLY", "1")
    monkeypatch.setenv("LEADTUI_PROFILES__WORK__SPEND_BUDGET", "70")
    work = resolve_profile("work", read_key=False)
    assert work.policy.read_only is True
    assert (work.policy.spend_budget, work.budget_source) == (70, "environment")
    assert work.policy.budget_from_env is True


def test_a_budget_set_only_in_the_environment_is_known_as_such(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert resolve_profile(read_key=False).budget_source == "default"
    monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "25")
    resolved = resolve_profile(read_key=False)
    assert (resolved.policy.spend_budget, resolved.policy.budget_from_env) == (25, True)
    write_settings("spend_budget = 25\n")
    assert resolve_profile(read_key=False).budget_source == "settings file"


def test_environ_stands_for_the_whole_environment(tmp_path: Path) -> None:
    config = tmp_path / "other.toml"
    config.write_text('download_dir = "/srv/leads"\n[profiles.agent]\nread_only = true\n')
    environ = {
        "LEADTUI_CONFIG_FILE": str(config),
        "LEADTUI_PROFILE": "agent",
        "LEADTUI_BASE_URL": "https://agent.example.com",
        "LEADTUI_API_KEY": "sk_live_agent_3333333333",
        "LEADTUI_SPEND_BUDGET": "5",
    }
    resolved = resolve_profile(environ=environ)
    assert (resolved.name, resolved.name_source) == ("agent", "LEADTUI_PROFILE")
    assert resolved.config_file == config
    assert resolved.base_url == "https://agent.example.com"
    assert resolved.key == SecretStr("sk_live_agent_3333333333")
    assert resolved.policy.read_only is True
    assert (resolved.policy.spend_budget, resolved.policy.budget_from_env) == (5, True)
    assert resolved.download_dir == Path("/srv/leads")
    assert "sk_live_agent" not in repr(resolved)
