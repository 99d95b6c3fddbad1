"""The inline error box every screen has: title, text, code and request id, retry countdown."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from textual.containers import Vertical
from textual.markup import escape
from textual.timer import Timer
from textual.widgets import Static

from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.model.timefmt import duration

RetryFn = Callable[[], object]

# The longest wait the panel counts down before retrying by itself. A server asking for more
# (`Retry-After: 100000`, `inf`) is told to the user in words, and nothing retries by itself.
MAX_COUNTDOWN_SECONDS = 600.0


class ErrorPanel(Vertical):
    """Hidden until `show`; a transient failure retries by itself after a countdown."""

    DEFAULT_CSS = """
    ErrorPanel {
        display: none;
        height: auto;
        margin: 0 1;
        padding: 0 1;
        border: round $error;
        border-title-color: $error;
        border-title-style: bold;
    }
    ErrorPanel.-visible { display: block; }
    ErrorPanel.-notice { border: round $warning; border-title-color: $warning; }
    ErrorPanel #error-meta { color: $text-muted; }
    ErrorPanel #error-retry { color: $text-warning; }
    """

    def __init__(self, *, id: str | None = "error-panel") -> None:
        super().__init__(id=id)
        self.report: ErrorReport | None = None
        self.delays: tuple[float, ...] = (2.0, 5.0, 10.0, 30.0)
        # Seconds now; the app's injected clock (frozen in tests, which move it by hand).
        self.clock: Callable[[], float] = time.time
        self._retry: RetryFn | None = None
        self._failures = 0
        self._deadline = 0.0
        self._timer: Timer | None = None
        self._too_long: float | None = None

    def _make_lines(self) -> None:
        # Made for the first report, not composed: hidden until then, they were a fifth of the
        # widgets of every screen's first frame.
        if not self.children:
            self.mount(
                Static(id="error-text", markup=False),
                # Selectable: in tmux without OSC 52 passthrough, `c` cannot reach the clipboard.
                Static(id="error-meta"),
                Static(id="error-retry"),
            )

    @property
    def request_id(self) -> str | None:
        return self.report.request_id if self.report else None

    def show(self, report: ErrorReport, *, retry: RetryFn | None = None) -> None:
        """Show `report`; if it is transient and `retry` is given, call it after a countdown."""
        self._make_lines()
        self.report = report
        self.border_title = report.title
        self.set_class(report.code == "insufficient_scope" and report.status is None, "-notice")
        self.query_one("#error-text", Static).update(report.text)
        meta = escape(report.meta)
        if report.request_id:
            meta += "  (c copies it)"
        self.query_one("#error-meta", Static).update(meta)
        self.query_one("#error-meta", Static).display = bool(meta)
        self._stop_timer()
        self._retry = retry if report.transient else None
        self._too_long = None
        if self._retry is not None:
            delay = report.retry_after or self.delays[min(self._failures, len(self.delays) - 1)]
            self._failures += 1
            if not delay <= MAX_COUNTDOWN_SECONDS:  # also NaN and infinity
                self._too_long, self._retry = delay, None
            else:
                self._deadline = self.clock() + delay
                self._timer = self.set_interval(0.25, self._tick)
        self._draw_countdown()
        self.add_class("-visible")

    def clear(self) -> None:
        """Hide the panel and forget the failure count (the last attempt succeeded)."""
        self._stop_timer()
        self.report = None
        self._retry = None
        self._too_long = None
        self._failures = 0
        self.remove_class("-visible")

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _draw_countdown(self) -> None:
        line = self.query_one("#error-retry", Static)
        line.display = self._retry is not None or self._too_long is not None
        if self._too_long is not None:
            line.update(
                f"The server asks to wait {duration(self._too_long)}: "
                "not retrying by itself; try again later."
            )
        elif self._retry is not None:
            left = max(0, math.ceil(self._deadline - self.clock()))
            line.update(f"Retrying in {duration(left)}…" if left else "Retrying now…")

    def _tick(self) -> None:
        self._draw_countdown()
        if self._retry is not None and self.clock() >= self._deadline:
            retry = self._retry
            self._stop_timer()
            retry()
