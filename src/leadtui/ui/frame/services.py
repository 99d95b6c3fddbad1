"""What the app needs from the outside world, passed in explicitly (no module globals).

`AppDeps` is fixed for the app's life; a `Session` is one signed-in key, replaced whole on each
sign-in. `make_app` (ui/frame/app.py) builds the app from them, for `launch.run` and for every test.
`FirstFrame` is what a launch knows before the first frame (read without pydantic or httpx);
its `load` builds the rest in a thread once the frame is up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

# Types only: the client (httpx), the settings (pydantic), the keyring and the journal
# (sqlite3) are not needed to paint the first frame.
if TYPE_CHECKING:
    from leadtui.api.client import LeadClient
    from leadtui.config.profile import ResolvedProfile
    from leadtui.config.secrets import KeyStore
    from leadtui.config.settings import Settings

T = TypeVar("T")


class SharedRead(Generic[T]):
    """One read per refresh: whoever asks while a read for the same refresh is on its way
    shares it (or its error); the next ask after it answered reads again. `refresh()` names
    the refresh an ask belongs to (the app: the session and its count of settled spends), so a
    balance asked for after a spend is never served by a read that went out before it."""

    def __init__(self, read: Callable[[], Awaitable[T]], refresh: Callable[[], object]) -> None:
        self._read = read
        self._refresh = refresh
        self._on_its_way: tuple[object, asyncio.Task[T]] | None = None

    def __call__(self) -> asyncio.Future[T]:
        """The answer to an ask of the refresh current now."""
        refresh = self._refresh()
        if self._on_its_way is None or self._on_its_way[0] != refresh:
            read = asyncio.ensure_future(self._read())
            self._on_its_way = (refresh, read)
            read.add_done_callback(self._answered)
        # Shielded: one asker cancelled (its screen closed) does not cancel the others' read.
        return asyncio.shield(self._on_its_way[1])

    def _answered(self, read: asyncio.Task[T]) -> None:
        if self._on_its_way is not None and self._on_its_way[1] is read:
            self._on_its_way = None


# Seconds before each automatic retry after a network failure (the last one repeats).
RETRY_DELAYS = (2.0, 5.0, 10.0, 30.0)


def connect(base_url: str, api_key: str) -> LeadClient:
    """A client for the real service (tests pass one bound to the in-process sandbox)."""
    from leadtui.api.client import LeadClient

    return LeadClient(base_url, api_key)


@dataclass(frozen=True)
class AppDeps:
    """Everything the app talks to, fixed for its life."""

    settings: Settings
    """The settings as loaded; the app keeps the current copy (`LeadApp.settings`)."""
    save_settings: Callable[[Settings], object]
    """Persists settings (theme, the profile's base URL). Blocking: call off the UI thread."""
    profile: str = "default"
    base_url: str = ""
    """The server to sign in to while there is no session (pre-fills the sign-in form)."""
    clock: Callable[[], float] = time.time
    """Wall-clock seconds; frozen in tests. Every "updated 3s ago" and countdown reads it."""
    connect: Callable[[str, str], LeadClient] = connect
    """(base_url, api_key) → a client; raises ConfigurationError for a bad URL or key."""
    keystore: KeyStore | None = None
    """None: the key is not saved anywhere (demo, environment key)."""
    load_credentials: Callable[[], ResolvedProfile] | None = None
    """The profile with its saved key (keyring: slow, may block): run off the UI thread after
    the first paint."""
    retry_delays: tuple[float, ...] = RETRY_DELAYS
    demo: bool = False
    journal_path: Path | None = None
    """The spend journal's file; None: the default under the state dir."""


@dataclass(frozen=True)
class Session:
    """One signed-in key. `key_source` says where the key came from, in words: "environment",
    "keyring", "insecure file", "demo"."""

    client: LeadClient
    key_source: str = ""


@dataclass(frozen=True)
class FirstFrame:
    """What the first frame shows, known before anything heavy is imported; `load` (run in a
    thread after the frame is up) returns the app's deps and, with a key at hand, a session.
    It raises LeadError or the settings reader's errors, with a message for the user."""

    load: Callable[[], tuple[AppDeps, Session | None]]
    theme: str = "dark"
    keymap: dict[str, str] = field(default_factory=dict)
    demo: bool = False
