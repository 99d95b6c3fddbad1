"""`leadtui login`, `leadtui logout` and `leadtui auth status`: plain text, never a traceback.

Exit codes are the command line's table: a failed key check exits as any command does for that
failure; bad input or settings, or no place to keep the key, is 2 (nothing sent or saved).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import httpx
from pydantic import SecretStr

from leadtui.api.errors import ConfigurationError, Forbidden, LeadError
from leadtui.api.guidance import UNEXPECTED
from leadtui.api.keys import api_key_problem, mask_key
from leadtui.api.urls import validate_base_url
from leadtui.cli.auth_status import check_key, describe_error, describe_identity, key_place, status
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import from_lead_error
from leadtui.config.errors import ConfigError
from leadtui.config.profile import profile_name, resolve_profile
from leadtui.config.secrets import KeyStore, KeyStoreError, NoKeyringAvailable
from leadtui.config.settings import save_settings
from leadtui.config.variables import API_KEY_ENV


@dataclass
class _Io:
    out: TextIO
    err: TextIO
    ask: Callable[[str], str]
    stdin: TextIO

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
    stdin: TextIO | None = None,
) -> int:
    """Run one auth command. `transport` lets tests route the key check to an in-process server.

    At a terminal the key is read with `getpass.getpass` (hidden as it is typed); from a pipe,
    as the first line of stdin.
    """
    io = _Io(out or sys.stdout, err or sys.stderr, ask, stdin or sys.stdin)
    store = keystore or KeyStore()
    try:
        if ns.command == "login":
            return _login(ns, io, store, transport)
        if ns.command == "logout":
            return _logout(ns, io, store)
        return status(ns, io.out, store, transport)
    except (KeyboardInterrupt, EOFError):
        return _failed(ns, io, "cancelled", "Cancelled; nothing was changed.", Exit.INTERRUPTED)
    except ConfigError as exc:  # before KeyStoreError: an unusable saved key is both
        code = getattr(exc, "code", "invalid_request")
        return _failed(ns, io, code, str(exc), Exit.USAGE)
    except KeyStoreError as exc:
        return _failed(ns, io, "no_key_storage", str(exc), Exit.USAGE)
    except Exception as exc:
        # The command's boundary: one line, never a traceback, and only the type, since a
        # library's message may quote what it was given.
        said = f"leadtui {_command(ns)}: unexpected error ({type(exc).__name__})."
        return _failed(ns, io, UNEXPECTED, said, Exit.UNEXPECTED)


def _failed(ns: argparse.Namespace, io: _Io, code: str, message: str, exit_code: Exit) -> int:
    """Say why, on stderr; with --json (auth status), as the one JSON document on stdout."""
    if getattr(ns, "json", False):
        error = {"code": code, "message": message, "request_id": None, "status": None}
        io.out.write(json.dumps({"error": error}, ensure_ascii=False) + "\n")
    else:
        io.warn(("\n" if exit_code == Exit.INTERRUPTED else "") + message)
    return exit_code


def _command(ns: argparse.Namespace) -> str:
    return "auth status" if ns.command == "auth" else str(ns.command)


def _login(
    ns: argparse.Namespace, io: _Io, store: KeyStore, transport: httpx.AsyncBaseTransport | None
) -> int:
    # The one profile that may not exist yet: login is how a profile comes to be.
    resolved = resolve_profile(ns.profile, base_url=ns.base_url, read_key=False, must_exist=False)
    profile, settings = resolved.name, resolved.settings
    raw_url = resolved.base_url or io.ask("Server URL (e.g. https://api.example.com): ")
    try:
        base_url = validate_base_url(raw_url)
    except ConfigurationError as exc:
        io.warn(f"{exc.message} Nothing was saved.")
        return Exit.USAGE
    if not ns.insecure_storage:
        # Refuse before the user types a key we would have nowhere to keep.
        try:
            store.probe()
        except KeyStoreError as exc:
            io.warn(f"{exc}\nNothing was saved.")
            return Exit.USAGE
    key = SecretStr(_read_key(io, f"API key for profile '{profile}' (hidden): ").strip())
    if not key.get_secret_value():
        io.warn("No key entered; nothing was saved.")
        return Exit.USAGE
    problem = api_key_problem(key.get_secret_value())
    if problem is not None:
        io.warn(f"That key cannot be used: {problem}. Nothing was sent or saved.")
        return Exit.USAGE

    io.say(f"Checking the key {mask_key(key.get_secret_value())} with {base_url} …")
    try:
        identity = asyncio.run(check_key(base_url, key, transport))
    except Forbidden as exc:
        # The server knows the key; access is limited for now. It is worth keeping.
        identity = None
        io.warn(f"The key is valid, but access is limited: {describe_error(exc)}")
    except LeadError as exc:
        io.warn(f"The key check failed: {describe_error(exc)}\nNothing was saved.")
        return from_lead_error(exc).exit  # as any command exits for it

    try:
        store.store(profile, key)
        where = "the OS keyring"
    except KeyStoreError as exc:
        if not ns.insecure_storage:
            io.warn(f"{exc}\nNothing was saved.")
            return Exit.USAGE
        if not isinstance(exc, NoKeyringAvailable):
            io.warn(str(exc))
        path = store.store_insecure(profile, key, warn=io.warn)
        where = f"{path} (unencrypted, mode 0600)"

    save_settings(settings.with_profile(profile, base_url=base_url))
    io.say(f"Signed in: profile '{profile}' at {base_url}; key stored in {where}.")
    if identity is not None:
        io.say(describe_identity(identity))
    if os.environ.get(API_KEY_ENV):
        io.say(f"Note: {API_KEY_ENV} is set here and takes precedence over the saved key.")
    return Exit.OK


def _logout(ns: argparse.Namespace, io: _Io, store: KeyStore) -> int:
    profile, _ = profile_name(ns.profile)
    removed = store.delete(profile)
    if removed:
        places = " and ".join(key_place(source) for source in removed)
        io.say(f"Signed out: the key of profile '{profile}' was removed from {places}.")
    else:
        io.say(f"No saved key for profile '{profile}'; nothing to remove.")
    if os.environ.get(API_KEY_ENV):
        io.say(f"Note: {API_KEY_ENV} is still set in this environment and provides a key.")
    return Exit.OK


def _read_key(io: _Io, prompt: str) -> str:
    """The key as typed, hidden, at a terminal; piped in, the first line of stdin, without
    getpass's warning that it cannot hide what nobody is typing."""
    if io.stdin.isatty():
        return getpass.getpass(prompt)
    return io.stdin.readline().rstrip("\r\n")
