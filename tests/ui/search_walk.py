"""Walks the search tests share, pressing keys as a user does and waiting on the screen."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import SearchRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.screen import screen_text, wait_until

ONE_EACH = SearchRequest.model_validate(
    {
        "activities": [{"name": "Plumber"}],
        "countries": [{"name": "France"}],
        "localisations": [{"name": "Paris"}],
    }
)


async def open_first_search(app: Any, pilot: Any) -> None:
    """Searches, then Enter on the newest: its detail, loaded, with nothing unlocked yet."""
    await app.workers.wait_for_complete()
    await pilot.press("2")
    await wait_until(pilot, lambda: "srch_000001" in screen_text(app))
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
    await wait_until(pilot, lambda: "No results unlocked yet" in screen_text(app))


async def unlock_dialog(app: Any, pilot: Any) -> None:
    """`u` on a search detail: the count dialog."""
    await pilot.press("u")
    await wait_until(pilot, lambda: isinstance(app.screen, UnlockCount))


async def confirm_suggested_unlock(app: Any, pilot: Any) -> None:
    """`u`, Enter on the suggested count, then the confirmation (not yet answered)."""
    await unlock_dialog(app, pilot)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
