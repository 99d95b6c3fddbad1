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
    """Askers of the same moment share one read (or its error). A spend seen in the journal
    asks for the balance from the watch that saw it and from each screen that shows it, at
    once: the server is asked once. The read goes out a turn of the event loop after the first
    ask, and whoever asks after it went out gets a read of their own: an answer never predates
    the ask it serves (a balance asked for after a spend is read after it)."""

    def __init__(self, read: Callable[[], Awaitable[T]]) -> None:
        self._read = read
        self._next: asyncio.Future[T] | None = None
        """The read not sent yet, which askers join."""
        self._sending: set[asyncio.Task[None]] = set()

    async def __call__(self) -> T:
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
            sending = asyncio.ensure_future(self._send(self._next))
            self._sending.add(sending)  # held until done: the loop keeps only weak references
            sending.add_done_callback(self._sending.discard)
        # Shielded: one asker cancelled (its screen closed) does not cancel the others' read.
        return await asyncio.shield(self._next)

    async def _send(self, answer: asyncio.Future[T]) -> None:
        await asyncio.sleep(0)  # the askers of this moment join first
        self._next = None
        try:
            answer.set_result(await self._read())
        except asyncio.CancelledError:
            answer.cancel()
            raise
        except Exception as error:  # every asker gets it
            answer.set_exception(error)


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

    @property
    def base_url(self) -> str:
        return self.client.base_url

    @property
    def key_masked(self) -> str:
        return self.client.key_masked


@dataclass(frozen=True)
class FirstFrame:
    """What the first frame shows, known before anything heavy is imported; `load` (run in a
    thread after the frame is up) returns the app's deps and, with a key at hand, a session.
    It raises LeadError or the settings reader's errors, with a message for the user."""

    load: Callable[[], tuple[AppDeps, Session | None]]
    theme: str = "dark"
    keymap: dict[str, str] = field(default_factory=dict)
    demo: bool = False
