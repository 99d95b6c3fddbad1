"""KeyStore: keyring first, probed and bounded in time; the 0600 file only on request."""

from __future__ import annotations

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

from leadtui.config.secrets import (
    KeyringTimeout,
    KeySource,
    KeyStore,
    KeyStoreError,
    NoKeyringAvailable,
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
