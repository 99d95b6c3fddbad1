"""What the app needs from the outside world, passed in explicitly (no module globals).

`launch.run` builds one `AppServices` for a real terminal; the tests build one against the
in-process sandbox. Screens reach it through `LeadScreen.services` / `LeadApp.services`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from leadtui.api.client import LeadClient
from leadtui.config.settings import Settings

# Types only: the spend gate's journal (sqlite3) is built on first use, after the first frame.
if TYPE_CHECKING:
    from leadtui.config.credentials import Credentials
    from leadtui.config.secrets import KeyStore
    from leadtui.spend.gate import SpendGate
    from leadtui.spend.journal import SpendJournal


def _connect(base_url: str, api_key: str) -> LeadClient:
    return LeadClient(base_url, api_key)


def _no_save(settings: Settings) -> None:
    """Default for tests of the frame alone: settings stay in memory."""


@dataclass(eq=False)
class AppServices:
    """Everything the app talks to. Mutable: signing in replaces `client` and the key fields."""

    # None until signed in (the sign-in screen, or a saved key still being read).
    client: LeadClient | None
    settings: Settings = field(default_factory=Settings)
    profile: str = "default"
    base_url: str = ""
    key_masked: str = ""
    # Where the key came from, in words: "environment", "keyring", "insecure file", "demo".
    key_source: str = ""
    # Wall-clock seconds; frozen in snapshot tests. Use it for "updated 3s ago".
    clock: Callable[[], float] = time.time
    # (base_url, api_key) -> a client; raises ConfigurationError for a bad URL. Sign-in uses it
    # to check a key with GET /me before saving anything.
    connect: Callable[[str, str], LeadClient] = _connect
    # None: the key is not saved anywhere (demo, environment key).
    keystore: KeyStore | None = None
    # Reads the saved key (keyring: slow, may block): run off the UI thread after first paint.
    load_credentials: Callable[[], Credentials] | None = None
    # Persists settings (theme, the profile's base URL). Blocking: call off the UI thread.
    save_settings: Callable[[Settings], object] = _no_save
    # Seconds before each automatic retry after a network failure (the last one repeats).
    retry_delays: tuple[float, ...] = (2.0, 5.0, 10.0, 30.0)
    demo: bool = False
    # Slots for the other layers (spend gate and journal: issue 5; job watcher: issue 6).
    spend_gate: SpendGate | None = None  # built on first use: ui.spend_flow.spend_gate
    journal: SpendJournal | None = None
    job_watcher: Any = None
