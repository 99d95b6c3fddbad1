"""The app's own actions, as keys and as entries in the command palette (ctrl+p): its
screens, its screens pushed over them (History, Approvals, help), the theme, quitting, and the
account's; an entry does what its key does. And what a greyed-out key says when pressed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from textual.binding import Binding

from leadtui.ui.frame.main_screens import SCREENS
from leadtui.ui.model.palette_command import PaletteCommand

if TYPE_CHECKING:
    from textual.binding import ActiveBinding
    from textual.command import Provider

    from leadtui.ui.frame.handle import AppHandle

APP_BINDINGS: Final = (
    # Numbers, as lazygit's panels: letters belong to tables (j/k, g/G) and screens.
    *(
        Binding(str(n), f"open('{s.mode}')", s.label, id=f"screens.{s.mode}", show=False)
        for n, s in enumerate(SCREENS, start=1)
    ),
    Binding("i", "sign_in", "Sign in", id="app.sign_in", show=False),
    Binding("H", "history", "History", id="app.history", key_display="H", show=False),
    Binding("A", "approvals", "Approvals", id="app.approvals", key_display="A", show=False),
    Binding("L", "away", "While you were away", id="app.away", key_display="L", show=False),
    Binding("question_mark,f1", "help", "Help", id="app.help", key_display="?"),
    Binding("ctrl+t", "toggle_theme", "Dark or light theme", id="app.toggle_theme", show=False),
    Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    # As in k9s and htop; a text field's selection is still copied by it (action_interrupt).
    Binding(
        "ctrl+c", "interrupt", "Quit (as ctrl+q)", id="app.interrupt", show=False, priority=True
    ),
    # On a main screen; a screen pushed over one binds q (and Esc) to go back instead.
    Binding("q", "ask_quit", "Quit (asks)", id="app.ask_quit", show=False),
)

# (title, help, the app's action): the key, when there is one, ends the title as help shows it.
_ACTIONS: Final = (
    ("app: keys and help", "The current screen's keys", "help"),
    (
        "app: history  H",
        "This session's requests and notifications, for a support ticket",
        "history",
    ),
    ("app: approvals  A", "Spends scripts and agents ask you to approve", "approvals"),
    (
        "app: while you were away  L",
        "What changed since the app was last open: jobs, spends, approvals",
        "away",
    ),
    ("app: toggle theme", "Dark or light (remembered)", "toggle_theme"),
)
_ACCOUNT: Final = (
    ("account: sign in with another key", "", "sign_in"),
    ("account: sign out", "Forget the saved key", "sign_out"),
)


def app_commands(app: Any) -> list[PaletteCommand]:
    """The screens, then the app's and the account's actions (`app` is the LeadApp, whose
    module is not imported here: it imports this one)."""
    commands = [
        PaletteCommand(f"screens: {s.label}", f"Open {s.label}", _opener(app, s.mode))
        for s in SCREENS
    ]
    commands += [
        PaletteCommand(title, words, getattr(app, f"action_{action}"))
        for title, words, action in _ACTIONS
    ]
    commands.append(PaletteCommand("app: quit", "Leave leadtui", app.exit))
    commands += [
        PaletteCommand(title, words, getattr(app, f"action_{action}"))
        for title, words, action in _ACCOUNT
    ]
    return commands


def _opener(app: Any, mode: str) -> Callable[[], object]:
    return lambda: app.action_open(mode)


def lead_commands() -> type[Provider]:
    """The palette's provider (the app's `COMMANDS`), imported when the palette first opens."""
    from leadtui.ui.frame.commands import LeadCommands

    return LeadCommands


def nav_entries(keymap: dict[str, str]) -> list[tuple[str, str, str]]:
    """(mode, key as shown, label) of each screen, the screens' keys remapped by `keymap`."""
    return [
        (s.mode, keymap.get(f"screens.{s.mode}", str(n)).split(",")[0], s.label)
        for n, s in enumerate(SCREENS, start=1)
    ]


def say_why_greyed(app: AppHandle, active: ActiveBinding) -> None:
    """A greyed-out key pressed: a scope the key lacks, or what the selected row is not (the
    node's `why_off`, e.g. a job panel's `NEEDS`), instead of nothing."""
    action, node = active.binding.action.split("(")[0], active.node
    gate = getattr(node, "ACTION_SCOPES", {}).get(action)
    if gate is not None and not app.has_scope(gate[0]):
        from leadtui.ui.model.errors import missing_scope

        report = missing_scope(*gate)
        app.notify(report.text, title=report.title, severity="warning", markup=False)
    elif why := getattr(node, "why_off", lambda *_: None)(action, active.binding.description):
        app.notify(why, severity="warning", timeout=5, markup=False)
