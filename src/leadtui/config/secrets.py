"""Where saved API keys live: the OS keyring, or, opted into, a file only the user can read.

Every keyring call runs in a daemon thread bounded by a timeout (the UI still calls these off
its own thread): a locked or wedged Secret Service can block for ever, and a daemon thread
cannot hold the process open on exit. `keyring` is imported lazily: ~80 ms at start-up.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final, TypeVar

from pydantic import SecretStr

from leadtui.api.keys import api_key_problem
from leadtui.config.errors import InvalidApiKey
from leadtui.config.files import UnreadableFile, ensure_private_dir, read_regular_file
from leadtui.config.settings import state_dir
from leadtui.durable import os_error_reason, write_atomically

SERVICE_NAME: Final = "leadtui"
KEYRING_TIMEOUT_SECONDS: Final = 3.0
INSECURE_FILE_NAME: Final = "insecure-keys.json"

_ALTERNATIVES: Final = (
    "Either set LEADTUI_API_KEY in the environment, or run `leadtui login --insecure-storage` "
    "to keep the key in a file only you can read (mode 0600)."
)

T = TypeVar("T")


class KeySource(StrEnum):
    """Where the key in use comes from, in the words `auth status` shows."""

    ENVIRONMENT = "environment"
    KEYRING = "keyring"
    INSECURE_FILE = "insecure file"


@dataclass(frozen=True)
class StoredKey:
    key: SecretStr
    source: KeySource


class KeyStoreError(Exception):
    """A saved key could not be read, written or removed. Messages never hold a key."""


class NoKeyringAvailable(KeyStoreError):
    """There is no usable OS keyring (typical on a headless server)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"No usable OS keyring: {reason}. {_ALTERNATIVES}")


class UnusableStoredKey(InvalidApiKey, KeyStoreError):
    """A saved key that could never be sent: both an InvalidApiKey (the command line exits 2)
    and a KeyStoreError (the TUI opens sign-in)."""

    def __init__(self, where: str, profile: str, problem: str) -> None:
        super().__init__(
            where,
            f"the key saved for profile '{profile}' cannot be used: {problem}; "
            "sign in again to replace it",
        )


def _require_sendable(key: SecretStr) -> None:
    problem = api_key_problem(key.get_secret_value())
    if problem is not None:
        raise InvalidApiKey("the API key", f"{problem}; nothing was saved")


class KeyringTimeout(KeyStoreError):
    """The keyring did not answer in time (often: locked, waiting for an unlock prompt)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"The OS keyring did not answer within {seconds:g} s (is it locked?). {_ALTERNATIVES}"
        )


def insecure_key_path() -> Path:
    """The opt-in plaintext key file, in the state dir (less often synced than ~/.config)."""
    return state_dir() / INSECURE_FILE_NAME


class KeyStore:
    """get/store/delete the API key of a profile. Keyring first; the 0600 file only on request."""

    def __init__(
        self, *, insecure_path: Path | None = None, timeout: float = KEYRING_TIMEOUT_SECONDS
    ) -> None:
        self.insecure_path = insecure_path or insecure_key_path()
        self._timeout = timeout
        self._backend: Any = None

    def _bounded(self, call: Callable[[], T]) -> T:
        outcome: list[tuple[bool, Any]] = []

        def target() -> None:
            try:
                outcome.append((True, call()))
            except BaseException as exc:  # handed to the caller's thread below
                outcome.append((False, exc))

        worker = threading.Thread(target=target, name="leadtui-keyring", daemon=True)
        worker.start()
        worker.join(self._timeout)
        if not outcome:
            raise KeyringTimeout(self._timeout)
        ok, value = outcome[0]
        if ok:
            result: T = value
            return result
        raise _translate(value) from None

    def probe(self) -> Any:
        """The keyring's backend, probed once; raises NoKeyringAvailable or KeyringTimeout
        unless a real keyring answers in time."""
        if self._backend is None:
            self._backend = self._bounded(_probe_backend)
        return self._backend

    def keyring_available(self) -> bool:
        try:
            self.probe()
        except KeyStoreError:
            return False
        return True

    def _read_file(self) -> dict[str, str]:
        try:
            raw = read_regular_file(self.insecure_path)
        except UnreadableFile as exc:
            raise KeyStoreError(f"Cannot read {self.insecure_path}: {exc.reason}") from None
        if raw is None:
            return {}
        try:
            doc = json.loads(raw)
        except (ValueError, RecursionError):
            raise KeyStoreError(f"{self.insecure_path} is not valid JSON.") from None
        keys = doc.get("keys") if isinstance(doc, dict) else None
        if not isinstance(keys, dict):
            return {}
        return {k: v for k, v in keys.items() if isinstance(k, str) and isinstance(v, str)}

    def _write_file(self, keys: dict[str, str]) -> None:
        path = self.insecure_path
        try:
            if not keys:
                path.unlink(missing_ok=True)
                return
            ensure_private_dir(path.parent)
            # The temp file is 0600 from its first byte: never a moment the key is world-readable.
            write_atomically(path, json.dumps({"version": 1, "keys": keys}, indent=2).encode())
        except OSError as exc:
            raise KeyStoreError(f"Cannot write {path}: {os_error_reason(exc)}") from None

    def _drop_from_file(self, profile: str) -> bool:
        """Remove the profile's key from the file; whether it held one."""
        keys = self._read_file()
        if keys.pop(profile, None) is None:
            return False
        self._write_file(keys)
        return True

    def get(self, profile: str) -> StoredKey | None:
        """The saved key of `profile`, keyring first, then the insecure file. A keyring that
        fails (other than being absent) is reported only when the file has no key either, so a
        user who opted into the file is not blocked by a broken keyring."""
        problem: KeyStoreError | None = None
        try:
            backend = self.probe()
            value = self._bounded(lambda: backend.get_password(SERVICE_NAME, profile))
            if value:
                return _checked(value, KeySource.KEYRING, "the OS keyring", profile)
        except NoKeyringAvailable:
            pass
        except KeyStoreError as exc:
            problem = exc
        from_file = self._read_file().get(profile)
        if from_file:
            return _checked(from_file, KeySource.INSECURE_FILE, str(self.insecure_path), profile)
        if problem is not None:
            raise problem
        return None

    def store(self, profile: str, key: SecretStr) -> KeySource:
        """Save in the keyring; raises NoKeyringAvailable (naming both alternatives), or
        InvalidApiKey for a key that could never be sent."""
        _require_sendable(key)
        backend = self.probe()
        secret = key.get_secret_value()
        self._bounded(lambda: backend.set_password(SERVICE_NAME, profile, secret))
        # The keyring now holds it: a stale plaintext copy must not linger.
        self._drop_from_file(profile)
        return KeySource.KEYRING

    def store_insecure(self, profile: str, key: SecretStr, warn: Callable[[str], None]) -> Path:
        """Save in the 0600 file, `warn` told first. Raises InvalidApiKey for a key that could
        never be sent, StateDirError when the file's directory cannot be made (both before the
        warning), KeyStoreError otherwise."""
        _require_sendable(key)
        ensure_private_dir(self.insecure_path.parent)
        warn(
            f"Warning: the API key will be stored UNENCRYPTED in {self.insecure_path} "
            "(readable only by your user, mode 0600). Anyone with access to your account or "
            "its backups can read it. Prefer an OS keyring, or LEADTUI_API_KEY."
        )
        keys = self._read_file()
        keys[profile] = key.get_secret_value()
        self._write_file(keys)
        return self.insecure_path

    def delete(self, profile: str) -> list[KeySource]:
        """Forget the key of `profile` everywhere; returns where one was removed."""
        removed: list[KeySource] = []
        problem: KeyStoreError | None = None
        try:
            backend = self.probe()
            if self._bounded(lambda: _delete_password(backend, SERVICE_NAME, profile)):
                removed.append(KeySource.KEYRING)
        except NoKeyringAvailable:
            pass
        except KeyStoreError as exc:
            problem = exc  # still remove the plaintext copy before reporting it
        if self._drop_from_file(profile):
            removed.append(KeySource.INSECURE_FILE)
        if problem is not None:
            raise problem
        return removed


def _checked(key: str, source: KeySource, where: str, profile: str) -> StoredKey:
    problem = api_key_problem(key)
    if problem is not None:
        raise UnusableStoredKey(where, profile, problem)
    return StoredKey(SecretStr(key), source)


def _probe_backend() -> Any:
    import keyring
    from keyring.backends import chainer, fail, null

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring | null.Keyring):
        raise NoKeyringAvailable(f"the keyring backend is {type(backend).__module__}")
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        raise NoKeyringAvailable("no keyring backend is installed or running")
    return backend


def _delete_password(backend: Any, service: str, profile: str) -> bool:
    from keyring.errors import PasswordDeleteError

    try:
        backend.delete_password(service, profile)
    except PasswordDeleteError:
        return False
    return True


def _translate(exc: BaseException) -> BaseException:
    """Keyring's own errors become ours; the backend's message is dropped on purpose."""
    if isinstance(exc, KeyStoreError):
        return exc
    from keyring import errors

    if isinstance(exc, errors.NoKeyringError | errors.InitError):
        return NoKeyringAvailable("the keyring backend could not be used")
    if isinstance(exc, errors.KeyringLocked):
        return KeyStoreError("The OS keyring is locked; unlock it and try again.")
    if isinstance(exc, Exception):
        return KeyStoreError(f"The OS keyring failed ({type(exc).__name__}).")
    return exc
