"""KeyStore: keyring first, probed and bounded in time; the 0600 file only on request."""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backend
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from pydantic import SecretStr

from leadtui.config.errors import InvalidApiKey, StateDirError
from leadtui.config.secrets import (
    KeyringTimeout,
    KeySource,
    KeyStore,
    KeyStoreError,
    NoKeyringAvailable,
    UnusableStoredKey,
)
from tests.support.memory_keyring import MemoryKeyring

KEY = SecretStr("sk_live_abcdef0123456789")


class HangingKeyring(KeyringBackend):
    """A keyring that never answers, like a locked Secret Service waiting for a prompt."""

    priority = 1  # type: ignore[assignment]

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def get_password(self, service: str, username: str) -> str | None:
        self.release.wait()
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        self.release.wait()

    def delete_password(self, service: str, username: str) -> None:
        self.release.wait()


class BrokenKeyring(MemoryKeyring):
    def get_password(self, service: str, username: str) -> str | None:
        raise RuntimeError("dbus went away")


@pytest.fixture
def hanging() -> Iterator[threading.Event]:
    release = threading.Event()
    keyring.set_keyring(HangingKeyring(release))
    yield release
    release.set()  # let the abandoned daemon threads finish


def test_keyring_round_trip(isolated_machine: MemoryKeyring) -> None:
    store = KeyStore()
    assert store.get("default") is None
    assert store.store("default", KEY) is KeySource.KEYRING
    assert isolated_machine.store[("leadtui", "default")] == KEY.get_secret_value()
    got = store.get("default")
    assert got is not None
    assert (got.key, got.source) == (KEY, KeySource.KEYRING)
    assert KEY.get_secret_value() not in repr(got)
    assert store.get("other") is None
    assert store.delete("default") == [KeySource.KEYRING]
    assert store.get("default") is None
    assert store.delete("default") == []


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring()], ids=["fail", "null"])
def test_probe_rejects_fail_and_null_backends(backend: KeyringBackend) -> None:
    keyring.set_keyring(backend)
    store = KeyStore()
    assert store.keyring_available() is False
    with pytest.raises(NoKeyringAvailable) as caught:
        store.store("default", KEY)
    message = str(caught.value)
    assert "LEADTUI_API_KEY" in message
    assert "leadtui login --insecure-storage" in message
    assert store.get("default") is None


def test_probe_rejects_a_chainer_with_nothing_to_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keyring.backend, "_limit", lambda _backend: False)
    keyring.set_keyring(chainer.ChainerBackend())
    with pytest.raises(NoKeyringAvailable, match="no keyring backend"):
        KeyStore().store("default", KEY)


def test_a_keyring_that_hangs_is_abandoned_in_time(hanging: threading.Event) -> None:
    store = KeyStore(timeout=0.2)
    started = time.monotonic()
    with pytest.raises(KeyringTimeout) as caught:
        store.store("default", KEY)
    assert time.monotonic() - started < 1.5
    assert "did not answer within 0.2 s" in str(caught.value)
    assert "--insecure-storage" in str(caught.value)
    with pytest.raises(KeyringTimeout):
        store.get("default")


def test_a_hanging_keyring_does_not_hide_the_insecure_file(hanging: threading.Event) -> None:
    store = KeyStore(timeout=0.1)
    store.store_insecure("default", KEY, warn=lambda _text: None)
    got = store.get("default")
    assert got is not None
    assert got.source is KeySource.INSECURE_FILE


def test_insecure_file_warns_first_and_is_0600() -> None:
    keyring.set_keyring(fail.Keyring())
    store = KeyStore()
    seen: list[tuple[str, bool]] = []
    path = store.store_insecure(
        "default", KEY, warn=lambda text: seen.append((text, store.insecure_path.exists()))
    )
    assert len(seen) == 1
    warning, existed = seen[0]
    assert existed is False  # the user was told before anything was written
    assert "UNENCRYPTED" in warning
    assert str(path) in warning
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.is_relative_to(Path(os.environ["XDG_STATE_HOME"]))
    got = store.get("default")
    assert got is not None
    assert (got.key, got.source) == (KEY, KeySource.INSECURE_FILE)
    # Another profile keeps its own key in the same file; logout removes only one.
    store.store_insecure("work", SecretStr("sk_live_work_999999999"), warn=lambda _t: None)
    assert store.delete("default") == [KeySource.INSECURE_FILE]
    work = store.get("work")
    assert work is not None
    assert work.key.get_secret_value() == "sk_live_work_999999999"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store.delete("work")
    assert not path.exists()


def test_storing_in_the_keyring_removes_the_plaintext_copy() -> None:
    store = KeyStore()
    store.store_insecure("default", KEY, warn=lambda _t: None)
    store.store("default", KEY)
    assert not store.insecure_path.exists()
    got = store.get("default")
    assert got is not None
    assert got.source is KeySource.KEYRING


def test_a_failing_keyring_is_reported_without_its_message() -> None:
    keyring.set_keyring(BrokenKeyring())
    with pytest.raises(KeyStoreError, match="RuntimeError") as caught:
        KeyStore().get("default")
    assert "dbus" not in str(caught.value)


def test_a_key_that_could_never_be_sent_is_never_stored(isolated_machine: MemoryKeyring) -> None:
    store = KeyStore()
    smart_quoted = SecretStr("sk_live\u201cabcdef0123456789")
    warned: list[str] = []
    with pytest.raises(InvalidApiKey, match="character 8 is not printable ASCII"):
        store.store("default", smart_quoted)
    with pytest.raises(InvalidApiKey, match="character 8 is not printable ASCII"):
        store.store_insecure("default", smart_quoted, warn=warned.append)
    assert (isolated_machine.store, warned, store.insecure_path.exists()) == ({}, [], False)


def test_an_unusable_key_in_the_insecure_file_names_the_file() -> None:
    keyring.set_keyring(fail.Keyring())
    store = KeyStore()
    store.insecure_path.parent.mkdir(parents=True)
    store.insecure_path.write_text(json.dumps({"keys": {"work": "sk_live\nabcdef0123456789"}}))
    with pytest.raises(UnusableStoredKey) as caught:
        store.get("work")
    assert str(caught.value).startswith(
        f"{store.insecure_path}: the key saved for profile 'work' cannot be used: character 8"
    )
    assert "abcdef" not in str(caught.value)


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_an_insecure_file_that_is_not_a_regular_file_is_not_opened(kind: str) -> None:
    store = KeyStore()
    store.insecure_path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(store.insecure_path)
    else:
        store.insecure_path.mkdir()
    with pytest.raises(KeyStoreError, match="not a regular file"):
        store.get("default")


def test_a_state_dir_that_cannot_be_made_stops_before_the_warning() -> None:
    store = KeyStore()
    store.insecure_path.parent.parent.mkdir(parents=True, exist_ok=True)
    store.insecure_path.parent.write_text("")
    warned: list[str] = []
    with pytest.raises(StateDirError, match="a file is in the way"):
        store.store_insecure("default", KEY, warn=warned.append)
    assert warned == []
    assert store.get("default") is None  # nothing saved, and nothing to read either
