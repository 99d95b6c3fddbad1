"""Which server and key the app uses: environment, then the saved profile, else sign in."""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail
from pydantic import SecretStr

from leadtui.config.credentials import resolve_credentials
from leadtui.config.errors import InvalidApiKey
from leadtui.config.secrets import KeySource, KeyStore, KeyStoreError, UnusableStoredKey
from leadtui.config.settings import Settings
from tests.support.memory_keyring import MemoryKeyring

SAVED = SecretStr("sk_live_saved_0000000000")
SETTINGS = Settings().with_profile("default", base_url="https://saved.example.com")


def test_nothing_saved_needs_sign_in() -> None:
    creds = resolve_credentials(Settings())
    assert creds.profile == "default"
    assert creds.needs_sign_in
    assert (creds.base_url, creds.key, creds.key_source, creds.key_masked) == (
        None,
        None,
        None,
        None,
    )


def test_saved_profile_uses_toml_url_and_keyring_key() -> None:
    KeyStore().store("default", SAVED)
    creds = resolve_credentials(SETTINGS)
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
    creds = resolve_credentials(SETTINGS)
    assert creds.key_source is KeySource.ENVIRONMENT
    assert creds.key == SecretStr("sk_live_from_env_1111111")
    assert (creds.base_url, creds.base_url_source) == ("https://env.example.com", "environment")


def test_env_key_alone_keeps_the_profile_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_live_from_env_1111111")
    creds = resolve_credentials(SETTINGS)
    assert creds.key_source == "environment"
    assert creds.base_url == "https://saved.example.com"


def test_profile_from_flag_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SETTINGS.with_profile("work", base_url="https://work.example.com")
    KeyStore().store("work", SecretStr("sk_live_work_2222222222"))
    monkeypatch.setenv("LEADTUI_PROFILE", "work")
    creds = resolve_credentials(settings)
    assert (creds.profile, creds.base_url) == ("work", "https://work.example.com")
    assert creds.key_masked == "…2222"
    flagged = resolve_credentials(settings, "default")
    assert (flagged.profile, flagged.key) == ("default", None)


def test_insecure_file_is_used_without_a_keyring() -> None:
    keyring.set_keyring(fail.Keyring())
    KeyStore().store_insecure("default", SAVED, warn=lambda _t: None)
    creds = resolve_credentials(SETTINGS)
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
        resolve_credentials(SETTINGS)
    assert str(caught.value) == (
        "LEADTUI_API_KEY: character 8 is not printable ASCII; nothing was sent"
    )
    never_says_the_key(caught.value)


def test_a_saved_key_that_is_not_printable_ascii_asks_for_a_new_sign_in(
    isolated_machine: MemoryKeyring,
) -> None:
    isolated_machine.store[("leadtui", "default")] = SMART_QUOTED
    with pytest.raises(UnusableStoredKey) as caught:
        resolve_credentials(SETTINGS)
    # The TUI opens sign-in on a KeyStoreError; the command line exits 2 on an InvalidApiKey.
    assert isinstance(caught.value, KeyStoreError)
    assert isinstance(caught.value, InvalidApiKey)
    assert str(caught.value) == (
        "the OS keyring: the key saved for profile 'default' cannot be used: character 8 is "
        "not printable ASCII; sign in again to replace it"
    )
    never_says_the_key(caught.value)
