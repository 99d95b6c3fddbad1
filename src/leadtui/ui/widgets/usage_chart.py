"""UsageChart: requests or credits per day over the usage window, with dates and a scale;
←/→ pick a day (its numbers are under the chart), `c` switches requests and credits."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from leadtui.ui.model.usage_chart import Metric, chart_lines

if TYPE_CHECKING:
    from leadtui.api.models import Usage, UsageDay


class UsageChart(Static, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "day(-1)", "Day before", id="account.day_before", show=False),
        Binding("right", "day(1)", "Day after", id="account.day_after", show=False),
        Binding("c", "switch_metric", "Credits/requests", id="account.chart_metric"),
    ]

    DEFAULT_CSS = """
    UsageChart { height: auto; }
    UsageChart:focus { background: $boost; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.days: list[UsageDay] = []
        self.metric: Metric = "requests"
        self.selected = 0

    def show_usage(self, usage: Usage) -> None:
        self.days = list(usage.daily)
        self.selected = max(0, len(self.days) - 1)  # today
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width = self.size.width
        if not width:
            return  # not laid out yet: the first resize draws it at its width
        self.update("\n".join(chart_lines(self.days, self.metric, self.selected, width)))

    def action_day(self, step: int) -> None:
        if self.days:
            self.selected = max(0, min(len(self.days) - 1, self.selected + step))
            self._draw()

    def action_switch_metric(self) -> None:
        self.metric = "credits" if self.metric == "requests" else "requests"
        self._draw()
