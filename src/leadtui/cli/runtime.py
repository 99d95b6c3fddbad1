"""What a command runs with: the outside world (injected by tests), the settings, the client.

`CliDeps` is everything a test swaps: the HTTP transport (the in-process sandbox), the sleep
and clock that waiting and retries use, the streams, whether a person is at a terminal, and
how to ask them. `Context` is one command's run: its arguments, output and lazily built client.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import httpx

from leadtui.api.client import LeadClient
from leadtui.api.guidance import NOT_SIGNED_IN
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure
from leadtui.cli.output import Output
from leadtui.config.variables import API_KEY_ENV, BASE_URL_ENV

if TYPE_CHECKING:
    from leadtui.config.profile import ResolvedProfile
    from leadtui.config.secrets import KeyStore

Sleep = Callable[[float], Awaitable[None]]


def _ask(prompt: str) -> str:
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return sys.stdin.readline()


@dataclass
class CliDeps:
    """The world outside the command line; the defaults are the real one."""

    transport: httpx.AsyncBaseTransport | None = None
    """None: the network, through httpx's sync client in threads (see `network.py`)."""
    sleep: Sleep = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    now: Callable[[], float] = time.time
    """Wall-clock seconds: what "since" and "until" mean (`digest`)."""
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    interactive: Callable[[], bool] = lambda: sys.stdin.isatty() and sys.stderr.isatty()
    """A person can answer a prompt (stdin and stderr are terminals)."""
    ask: Callable[[str], str] = _ask
    keystore: KeyStore | None = None
    journal_path: Path | None = None


@dataclass
class Context:
    ns: argparse.Namespace
    deps: CliDeps
    out: Output
    _resolved: ResolvedProfile | None = None
    _client: LeadClient | None = None

    @property
    def resolved(self) -> ResolvedProfile:
        """The profile as every surface resolves it (--profile, --base-url, LEADTUI_*, the
        settings file), without its key. Raises UnknownProfile for a name not on file."""
        if self._resolved is None:
            from leadtui.config.profile import resolve_profile

            self._resolved = resolve_profile(
                self.ns.profile, base_url=self.ns.base_url, read_key=False
            )
        return self._resolved

    @property
    def profile(self) -> str:
        return self.resolved.name

    def client(self) -> LeadClient:
        """The client for this profile: the server and the key exactly as the app finds them
        (--base-url, the environment, the profile; the environment, keyring, key file)."""
        if self._client is None:
            signed = self.resolved.with_key(self.deps.keystore)
            if not signed.base_url or signed.key is None:
                raise CliFailure(
                    NOT_SIGNED_IN,
                    f"Not signed in for profile '{signed.name}'.",
                    Exit.AUTH,
                    hint=f"Run `leadtui login`, or set {API_KEY_ENV} and {BASE_URL_ENV}.",
                )
            from leadtui.cli.network import ThreadedTransport

            self._client = LeadClient(
                signed.base_url,
                signed.key,
                transport=self.deps.transport or ThreadedTransport(),
                sleep=self.deps.sleep,
            )
        return self._client

    def private_state_dir(self) -> Path:
        """The spend journal's folder, made (or tightened to) 0700. Raises StateDirError (a
        ConfigError: the user's input, exit 2) when it cannot be made."""
        from leadtui.config.files import ensure_private_dir
        from leadtui.spend.journal import default_journal_path

        return ensure_private_dir((self.deps.journal_path or default_journal_path()).parent)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
