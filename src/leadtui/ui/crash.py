"""What the terminal shows when the app stops on an unexpected error.

One line a user can act on, never Textual's default traceback, whose frames' locals may hold
the API key. LEADTUI_DEBUG=1 adds the traceback, without locals.
"""

from __future__ import annotations

import os

from rich.console import RenderableType
from rich.text import Text
from rich.traceback import Traceback


def crash_report(error: BaseException | None) -> list[RenderableType]:
    """Printed once the terminal is given back; called while `error` is being handled."""
    kind = type(error).__name__ if error is not None else "error"
    report: list[RenderableType] = [
        Text(
            f"leadtui stopped on an unexpected {kind}. Nothing was sent twice: a spend in "
            "flight is offered again at the next start. Please report what you were doing."
        )
    ]
    if os.environ.get("LEADTUI_DEBUG"):
        report.append(Traceback(show_locals=False, width=None))
    return report
