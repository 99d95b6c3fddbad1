"""What the tool server runs with: the outside world (injected by tests) and, built on first
use, the profile (resolved as every surface resolves it), its spend core and its one client.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

import httpx

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError
from leadtui.api.guidance import NOT_SIGNED_IN
from leadtui.api.transport import Sleep
from leadtui.config.errors import ConfigError
from leadtui.config.profile import ResolvedProfile, resolve_profile
from leadtui.config.secrets import KeyStoreError
from leadtui.config.variables import API_KEY_ENV, BASE_URL_ENV
from leadtui.mcp.results import ToolFailure
from leadtui.spend.decision import Allowance

if TYPE_CHECKING:
    from leadtui.config.secrets import KeyStore
    from leadtui.spend.gate import SpendGate

CONFIGURATION: Final = "configuration"


@dataclass
class McpDeps:
    """The world outside the server; the defaults are the real one."""

    transport: httpx.AsyncBaseTransport | None = None  # None: the network
    sleep: Sleep = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    keystore: KeyStore | None = None
    journal_path: Path | None = None
    environ: Mapping[str, str] | None = None  # None: this process's environment
    ask_seconds: float = 45.0
    """How long the user has to answer a question about a spend; then nothing is sent. Within
    the 60 s a TypeScript-SDK client waits for a call by default (progress does not extend it
    there unless the client asks), leaving time to quote before and to send after."""
    stderr: TextIO | None = None  # where a wait is told line by line (None: this process's)


@dataclass(frozen=True)
class Options:
    """What the user gave when starting the server."""

    profile: str | None = None
    base_url: str | None = None
    max_credits: int = 0
    max_launches: int = 0
    approve_in_app: bool = False
    approval_timeout: float | None = None  # None: the default wait


@dataclass
class Runtime:
    """One server's life: its options, its world, and what is built on first use."""

    options: Options
    deps: McpDeps = field(default_factory=McpDeps)
    limits: str = field(init=False, default_factory=lambda: f"agent/{uuid.uuid4().hex}")
    """The journal's name for this server's allowance: every spend it sends is counted under
    it there, so no cancel, resend or restart of a call can give credits back."""
    spending: asyncio.Lock = field(init=False, default_factory=asyncio.Lock)
    """Held from the last decision to the outcome of a spend: one spend at a time."""
    sending: str | None = field(init=False, default=None)
    """The idempotency key of the spend being sent; None once its outcome is known (what to
    say if the server is stopped meanwhile)."""
    _resolved: ResolvedProfile | None = None
    _client: LeadClient | None = None
    _gate: SpendGate | None = None

    @property
    def allowance(self) -> Allowance:
        return Allowance(self.options.max_credits, self.options.max_launches)

    def allowance_left(self) -> Allowance:
        """What is left of it: the allowance less what the journal counts under it."""
        spent = self.gate().journal.spent_under(self.limits)
        return self.allowance.less(Allowance(*spent))

    def gate(self) -> SpendGate:
        """The spend core for this profile, on the journal every surface shares."""
        if self._gate is None:
            from leadtui.spend.gate import SpendGate
            from leadtui.spend.journal import SpendJournal

            journal = SpendJournal(self.deps.journal_path)
            self._gate = SpendGate(journal, profile=self.resolved.name, policy=self.resolved.policy)
        return self._gate

    @property
    def resolved(self) -> ResolvedProfile:
        """The profile, without its key (read with the client)."""
        if self._resolved is None:
            try:
                self._resolved = resolve_profile(
                    self.options.profile,
                    base_url=self.options.base_url,
                    environ=self.deps.environ,
                    read_key=False,
                )
            except ConfigError as exc:
                raise ToolFailure(getattr(exc, "code", CONFIGURATION), str(exc)) from None
        return self._resolved

    @property
    def approves_in_app(self) -> bool:
        """`--approve-in-app`, or `approvals = "app"` in the profile (as for the command line)."""
        return self.options.approve_in_app or self.resolved.approvals_in_app

    def client(self) -> LeadClient:
        """The client for this profile, built once; a tool error when nobody is signed in."""
        if self._client is None:
            try:
                creds = self.resolved.with_key(self.deps.keystore, self.deps.environ)
            except (ConfigError, KeyStoreError) as exc:
                raise ToolFailure(CONFIGURATION, str(exc)) from None
            base_url = creds.base_url
            if not base_url or creds.key is None:
                raise ToolFailure(
                    NOT_SIGNED_IN,
                    f"Not signed in for profile '{creds.name}'.",
                    hint=(
                        "The user runs `leadtui login` (or sets "
                        f"{API_KEY_ENV} and {BASE_URL_ENV} for this server), then restarts it."
                    ),
                )
            try:
                self._client = LeadClient(
                    base_url, creds.key, transport=self.deps.transport, sleep=self.deps.sleep
                )
            except ConfigurationError as exc:
                raise ToolFailure(CONFIGURATION, exc.message) from None
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
