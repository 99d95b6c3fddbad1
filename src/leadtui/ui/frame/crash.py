"""What the terminal shows when the app stops on an unexpected error.

One line a user can act on, never Textual's default traceback, whose frames' locals may hold
the API key. LEADTUI_DEBUG=1 adds the traceback, without locals.

Textual renders a crash as a Rich `Traceback` with the app's console and prints it once the
terminal is given back; the app's console is a `CrashReportingConsole`, which renders any such
traceback as this report instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.text import Text

from leadtui.config.variables import DEBUG_ENV

if TYPE_CHECKING:
    from rich.traceback import Trace


def crash_report(trace: Trace | None) -> list[RenderableType]:
    """What a crash prints: one line naming the error's type; with LEADTUI_DEBUG, the
    traceback without any frame's locals."""
    kind = trace.stacks[-1].exc_type if trace is not None and trace.stacks else "error"
    report: list[RenderableType] = [
        Text(
            f"leadtui stopped on an unexpected {kind}. Nothing was sent twice: a spend in "
            "flight is offered again at the next start. Please report what you were doing."
        )
    ]
    if trace is not None and os.environ.get(DEBUG_ENV):
        report.append(_without_locals(trace))
    return report


def _without_locals(trace: Trace) -> RenderableType:
    from rich.traceback import Traceback

    class LocalsFreeTraceback(Traceback):
        """Shown as it is by `CrashReportingConsole` (it holds no locals to hide)."""

    return LocalsFreeTraceback(trace, show_locals=False, width=None)


class CrashReportingConsole(Console):
    """The app's console: a Rich traceback (Textual's crash report, with every frame's
    locals) is rendered as `crash_report` instead; everything else as Rich renders it."""

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        # Not imported yet means no traceback exists: no import just to ask (start-up).
        tracebacks: Any = sys.modules.get("rich.traceback")
        if (
            tracebacks is not None
            and isinstance(renderable, tracebacks.Traceback)
            and type(renderable).__name__ != "LocalsFreeTraceback"
        ):
            renderable = Group(*crash_report(renderable.trace))
        return super().render(renderable, options)
