"""Leaving the app: `q` asks, ctrl+q and ctrl+c quit at once, and all three ask while a
confirmed spend is on its way (it would stay pending until the next start)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.handle import app_handle

if TYPE_CHECKING:
    from textual.app import App


def quit_text(*, demo: bool) -> str:
    """What quitting leaves behind, true for the run: the demo's sandbox ends with the app."""
    if demo:
        return (
            "This is the demo: its sandbox, its searches and its jobs end when you quit; the "
            "next leadtui --demo starts afresh. ctrl+q quits without asking."
        )
    return (
        "Jobs go on on the server; they are here when you come back. ctrl+q quits without asking."
    )


async def confirm_quit(app: App[Any]) -> None:
    """`q` on a main screen: quit once the user says so."""
    dialog = ConfirmText("Quit leadtui?", quit_text(demo=app_handle(app).demo), "Quit")
    if await app.push_screen_wait(dialog):
        app.exit()
