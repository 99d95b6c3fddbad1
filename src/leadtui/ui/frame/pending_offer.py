"""Spends journaled but never settled (a crash) are offered at start and after each sign-in.

Offered once the account is known (GET /me: the journal's intents are matched to it) and the
balance is painted. The spend gate, its journal (sqlite3) and its dialogs are imported only
then: none is needed to paint the frame or show the balance. The away panel waits for the
offer (`settled`), so it always lies over it, whichever read ends first.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from leadtui.ui.frame.handle import app_handle

if TYPE_CHECKING:
    from textual.app import App


class PendingOffer:
    """Whether an offer is due, and making it once the account is known."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.due = False
        self._offers = 0  # started: only the newest one's end settles (a sign-in replaces one)
        self._settled = asyncio.Event()
        self._settled.set()

    def after_sign_in(self) -> None:
        """A sign-in (or the start): offer the pending spends of that account."""
        self.due = True
        self.when_known()

    def when_known(self) -> None:
        """Call when the account may have become known: the offer goes out if it is due."""
        if self.due and app_handle(self.app).identity is not None:
            self.due = False
            self._offers += 1
            self._settled.clear()
            self.app.call_after_refresh(self._offer, self._offers)

    async def settled(self) -> None:
        """Return once no offer is on its way: it is shown, or there was nothing to offer."""
        await self._settled.wait()

    def _offer(self, number: int) -> None:
        from leadtui.ui.frame.spend_flow import offer_pending_spends

        offer_pending_spends(self.app, then=lambda: self._ended(number))

    def _ended(self, number: int) -> None:
        if number == self._offers:
            self._settled.set()
