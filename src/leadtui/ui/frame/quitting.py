"""Leaving the app: `q` asks, ctrl+q and ctrl+c quit at once, and all three ask while a
confirmed spend is on its way (it would stay pending until the next start)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from leadtui.ui.frame.handle import app_handle
from leadtui.ui.frame.workers import start_worker

if TYPE_CHECKING:
    from textual.app import App


IN_FLIGHT = (
    "A confirmed spend is on its way and the server has not answered yet. If you quit now it "
    "stays in the journal as pending and is offered at the next start, to resend with the same "
    "key (the server charges a key at most once) or discard."
)


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


def quit_at_once(app: App[Any]) -> None:
    """ctrl+q: quit, unless a confirmed spend is on its way (then ask first)."""
    if app_handle(app).spends_in_flight:
        ask_to_quit(app)
    else:
        app.exit()


def interrupt(app: App[Any]) -> None:
    """ctrl+c: copy a text field's selection, else quit as ctrl+q does."""
    from textual.widgets import Input, TextArea

    focused = app.focused
    if isinstance(focused, Input | TextArea) and focused.selected_text:
        focused.action_copy()
        return
    quit_at_once(app)


def ask_to_quit(app: App[Any]) -> None:
    """`q` on a main screen: quit once the user says so."""
    start_worker(app, partial(confirm_quit, app), group="confirm-quit", exclusive=True)


async def confirm_quit(app: App[Any]) -> None:
    """Quit once the user says so, told what quitting leaves behind: while a confirmed spend
    is sending, that it stays pending until the next start."""
    from leadtui.ui.dialogs.confirm import ConfirmText  # a dialog: not for the first frame

    lead = app_handle(app)
    if lead.spends_in_flight:
        dialog = ConfirmText("Quit while a spend is sending?", IN_FLIGHT, "Quit")
    else:
        dialog = ConfirmText("Quit leadtui?", quit_text(demo=lead.demo), "Quit")
    if await app.push_screen_wait(dialog):
        app.exit()
