"""`leadtui login`, `leadtui logout` and `leadtui auth status`: plain text, never a traceback.

Exit codes: 0 done; 1 the key check failed (key rejected, server unreachable or erroring), or
an unexpected error (named by its type on one line); 2 bad input or settings (a key that is not
printable ASCII, a broken config file or LEADTUI_* variable, a state dir that cannot be made);
3 no place to store the key; 4 not signed in; 130 cancelled.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import httpx
from pydantic import SecretStr

from leadtui.api import (
    ApiError,
    ConfigurationError,
    Forbidden,
    Identity,
    LeadClient,
    LeadError,
    mask_key,
    validate_base_url,
)
from leadtui.api.keys import api_key_problem
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import from_lead_error
from leadtui.config.credentials import API_KEY_ENV, BASE_URL_ENV, resolve_credentials
from leadtui.config.errors import ConfigError
from leadtui.config.secrets import KeySource, KeyStore, KeyStoreError, NoKeyringAvailable
from leadtui.config.settings import (
    PROFILE_ENV,
    load_settings,
    resolve_profile_name,
    save_settings,
)

# The command line's one exit-code table (`leadtui --help`, README), in the words of these
# commands. A failed key check exits as any command would for that failure.
EXIT_OK = Exit.OK
EXIT_UNEXPECTED = Exit.UNEXPECTED
EXIT_USAGE = Exit.USAGE
EXIT_NO_STORAGE = Exit.USAGE  # no keyring and no --insecure-storage: nothing was sent or saved
EXIT_NOT_SIGNED_IN = Exit.AUTH
EXIT_CANCELLED = Exit.INTERRUPTED


def _check_failed(error: LeadError) -> Exit:
    return from_lead_error(error).exit


@dataclass
class _Io:
    out: TextIO
    err: TextIO
    ask: Callable[[str], str]

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def warn(self, text: str) -> None:
        print(text, file=self.err)


def run(
    ns: argparse.Namespace,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    keystore: KeyStore | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    ask: Callable[[str], str] = input,
) -> int:
    """Run one auth command. `transport` lets tests route the key check to an in-process server.

    The key itself is read with `getpass.getpass` (hidden as it is typed).
    """
    io = _Io(out or sys.stdout, err or sys.stderr, ask)
    store = keystore or KeyStore()
    try:
        if ns.command == "login":
            return _login(ns, io, store, transport)
        if ns.command == "logout":
            return _logout(ns, io, store)
        return _status(ns, io, store, transport)
    except (KeyboardInterrupt, EOFError):
        io.warn("\nCancelled; nothing was changed.")
        return EXIT_CANCELLED
    except ConfigError as exc:  # before KeyStoreError: an unusable saved key is both
        io.warn(str(exc))
        return EXIT_USAGE
    except KeyStoreError as exc:
        io.warn(str(exc))
        return EXIT_NO_STORAGE
    except Exception as exc:
        # The command's boundary: one line, never a traceback, and only the type, since a
        # library's message may quote what it was given.
        io.warn(f"leadtui {_command(ns)}: unexpected error ({type(exc).__name__}).")
        return EXIT_UNEXPECTED


def _command(ns: argparse.Namespace) -> str:
    return "auth status" if ns.command == "auth" else str(ns.command)


def _login(
    ns: argparse.Namespace, io: _Io, store: KeyStore, transport: httpx.AsyncBaseTransport | None
) -> int:
    profile = resolve_profile_name(ns.profile)
    settings = load_settings()
    raw_url = (
        ns.base_url
        or os.environ.get(BASE_URL_ENV)
        or settings.profile(profile).base_url
        or io.ask("Server URL (e.g. https://api.example.com): ")
    )
    try:
        base_url = validate_base_url(raw_url)
    except ConfigurationError as exc:
        io.warn(f"{exc.message} Nothing was saved.")
        return EXIT_USAGE
    if not ns.insecure_storage:
        # Refuse before the user types a key we would have nowhere to keep.
        try:
            store.probe()
        except KeyStoreError as exc:
            io.warn(f"{exc}\nNothing was saved.")
            return EXIT_NO_STORAGE
    key = SecretStr(getpass.getpass(f"API key for profile '{profile}' (hidden): ").strip())
    if not key.get_secret_value():
        io.warn("No key entered; nothing was saved.")
        return EXIT_USAGE
    problem = api_key_problem(key.get_secret_value())
    if problem is not None:
        io.warn(f"That key cannot be used: {problem}. Nothing was sent or saved.")
        return EXIT_USAGE

    io.say(f"Checking the key {mask_key(key.get_secret_value())} with {base_url} …")
    try:
        identity = asyncio.run(_check(base_url, key, transport))
    except Forbidden as exc:
        # The server knows the key; access is limited for now. It is worth keeping.
        identity = None
        io.warn(f"The key is valid, but access is limited: {_describe_error(exc)}")
    except LeadError as exc:
        io.warn(f"The key check failed: {_describe_error(exc)}\nNothing was saved.")
        return _check_failed(exc)

    try:
        store.store(profile, key)
        where = "the OS keyring"
    except KeyStoreError as exc:
        if not ns.insecure_storage:
            io.warn(f"{exc}\nNothing was saved.")
            return EXIT_NO_STORAGE
        if not isinstance(exc, NoKeyringAvailable):
            io.warn(str(exc))
        path = store.store_insecure(profile, key, warn=io.warn)
        where = f"{path} (unencrypted, mode 0600)"

    save_settings(settings.with_profile(profile, base_url=base_url))
    io.say(f"Signed in: profile '{profile}' at {base_url}; key stored in {where}.")
    if identity is not None:
        io.say(_describe_identity(identity))
    if os.environ.get(API_KEY_ENV):
        io.say(f"Note: {API_KEY_ENV} is set here and takes precedence over the saved key.")
    return EXIT_OK


def _logout(ns: argparse.Namespace, io: _Io, store: KeyStore) -> int:
    profile = resolve_profile_name(ns.profile)
    removed = store.delete(profile)
    if removed:
        places = " and ".join(_place(source) for source in removed)
        io.say(f"Signed out: the key of profile '{profile}' was removed from {places}.")
    else:
        io.say(f"No saved key for profile '{profile}'; nothing to remove.")
    if os.environ.get(API_KEY_ENV):
        io.say(f"Note: {API_KEY_ENV} is still set in this environment and provides a key.")
    return EXIT_OK


def _status(
    ns: argparse.Namespace, io: _Io, store: KeyStore, transport: httpx.AsyncBaseTransport | None
) -> int:
    settings = load_settings()
    creds = resolve_credentials(settings, ns.profile, keystore=store)
    origin = "--profile" if ns.profile else PROFILE_ENV if os.environ.get(PROFILE_ENV) else None
    io.say(f"Profile: {creds.profile}" + (f" (from {origin})" if origin else ""))
    if creds.base_url:
        io.say(f"Server:  {creds.base_url} (from {creds.base_url_source})")
    else:
        io.say("Server:  not set")
    if creds.key is not None and creds.key_source is not None:
        io.say(f"Key:     {creds.key_masked} (from {_place(creds.key_source)})")
    else:
        io.say("Key:     none saved")
    if creds.needs_sign_in or creds.key is None or creds.base_url is None:
        login = _login_command(ns, store)
        io.say(f"Not signed in. Run `{login}`, or set {API_KEY_ENV} and {BASE_URL_ENV}.")
        return EXIT_NOT_SIGNED_IN
    try:
        identity = asyncio.run(_check(creds.base_url, creds.key, transport))
    except ConfigurationError as exc:
        io.say(f"Check:   not possible: {exc.message}")
        return EXIT_USAGE
    except LeadError as exc:
        io.say(f"Check:   FAILED: {_describe_error(exc)}")
        return _check_failed(exc)
    io.say(f"Check:   OK. {_describe_identity(identity)}")
    return EXIT_OK


async def _check(
    base_url: str, key: SecretStr, transport: httpx.AsyncBaseTransport | None
) -> Identity:
    from leadtui.cli.network import ThreadedTransport

    async with LeadClient(base_url, key, transport=transport or ThreadedTransport()) as client:
        return await client.me()


def _login_command(ns: argparse.Namespace, store: KeyStore) -> str:
    """The login that works here: --insecure-storage only where there is no OS keyring."""
    words = ["leadtui", "login"]
    if ns.profile:
        words += ["--profile", shlex.quote(ns.profile)]
    if not store.keyring_available():
        words.append("--insecure-storage")
    return " ".join(words)


def _place(source: KeySource) -> str:
    return {
        KeySource.ENVIRONMENT: f"the environment ({API_KEY_ENV})",
        KeySource.KEYRING: "the OS keyring",
        KeySource.INSECURE_FILE: "the insecure key file",
    }[source]


def _describe_identity(identity: Identity) -> str:
    account = identity.account.name if identity.account and identity.account.name else None
    who = f"Account {account}: " if account else "Account: "
    return (
        f"{who}{identity.credits:,} credits, subscription {identity.subscription.status}, "
        f"{len(identity.scopes)} scopes."
    )


def _describe_error(exc: LeadError) -> str:
    if isinstance(exc, ApiError):
        rid = f", request id {exc.request_id}" if exc.request_id else ""
        return f"{exc.title} ({exc.status} {exc.code}{rid}): {exc.message}"
    return f"{exc.title}: {exc.message}"
