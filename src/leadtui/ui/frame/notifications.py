"""Telling the user a job finished: a toast, and if enabled the bell and a desktop notification.

The desktop notification is a terminal escape (OSC 9 for iTerm2/kitty/WezTerm/Windows
Terminal, OSC 777 for foot/VTE/urxvt); terminals that know neither ignore both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from textual.notifications import SeverityLevel

from leadtui.ui.model.job_board import JobChange

if TYPE_CHECKING:
    from textual.app import App

    from leadtui.ui.frame.terminal_output import TerminalOutput

# Control characters would end the escape early or inject another one.
_UNSAFE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f;]")

_WORDS: Final[dict[str, tuple[str, SeverityLevel]]] = {
    "ready": ("is ready", "information"),
    "failed": ("failed", "error"),
    "completed": ("completed", "information"),
    "stopped": ("stopped", "warning"),
}
# (kind, state) -> (what to do on the dashboard, what to do elsewhere): only keys that work
# where the user is. Elsewhere `j` opens the dashboard.
_NEXT: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("export", "ready"): ("select it under Exports: d downloads it", "Jobs (4) to download"),
    ("export", "failed"): (
        "select it under Exports: t retries it at no cost",
        "Jobs (4) to retry it at no cost",
    ),
    ("extraction", "completed"): ("select it: v shows its results", "Jobs (4) to see them"),
    ("extraction", "stopped"): ("select it: v shows what it found", "Jobs (4) to see them"),
}


def describe_change(change: JobChange, *, on_dashboard: bool) -> tuple[str, str, SeverityLevel]:
    """(title, text, severity) of a finished job, in words that survive NO_COLOR, naming
    only keys that work on the screen showing (`on_dashboard`: the jobs screen)."""
    what = "Export" if change.kind == "export" else "Extraction"
    verb, severity = _WORDS.get(change.after, (change.after, "information"))
    mark = {"failed": "✗", "stopped": "■"}.get(change.after, "✓")
    text = f"{change.job_id} {verb}" + (f": {change.reason}" if change.reason else "")
    here, elsewhere = _NEXT.get((change.kind, change.after), ("", "Jobs (4) for details"))
    step = here if on_dashboard else elsewhere
    if step:
        text += f"; {step}" if on_dashboard else f" — {step}"
    return f"{mark} {what} {verb}", text, severity


def describe_gone(jobs: Sequence[tuple[str, str]]) -> str:
    """Jobs the server no longer has (it lost them, e.g. a restart without its database)."""
    names = ", ".join(job_id for _, job_id in jobs[:3]) + (" …" if len(jobs) > 3 else "")
    return (
        f"The server no longer has {names}: "
        + ("it was" if len(jobs) == 1 else "they were")
        + " removed from the list. Polling goes on."
    )


def desktop_escapes(title: str, text: str) -> str:
    """OSC 9 and OSC 777 notifications, sanitised so they cannot break out of the escape."""
    safe_title, safe_text = _UNSAFE.sub(" ", title), _UNSAFE.sub(" ", text)
    return f"\x1b]9;{safe_title}: {safe_text}\x07\x1b]777;notify;{safe_title};{safe_text}\x07"


class JobNotifier:
    """Announces finished jobs on whatever screen is showing (toasts are app-wide)."""

    def __init__(
        self,
        app: App[Any],
        *,
        bell: Callable[[], bool],
        desktop: Callable[[], bool],
        on_dashboard: Callable[[], bool],
        terminal: TerminalOutput,
    ) -> None:
        self._app = app
        self._on_dashboard = on_dashboard
        self._bell = bell
        self._desktop = desktop
        # Where escapes go: the terminal the app draws on (nowhere when headless).
        self.write: Callable[[str], None] = terminal.write

    def announce(self, change: JobChange) -> None:
        title, text, severity = describe_change(change, on_dashboard=self._on_dashboard())
        self._app.notify(text, title=title, severity=severity, timeout=8, markup=False)
        if self._bell():
            self.write("\a")
        if self._desktop():
            self.write(desktop_escapes(title, text))

    def announce_gone(self, jobs: Sequence[tuple[str, str]]) -> None:
        """One toast for every job a tick found gone (never one per job)."""
        self._app.notify(
            describe_gone(jobs), title="Jobs gone", severity="warning", timeout=8, markup=False
        )
