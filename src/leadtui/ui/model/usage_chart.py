"""The 30-day usage chart as lines of text: bars with a scale, dates under them, and the
selected day's numbers. Textual-free; readable at 80 columns and under NO_COLOR.
"""

from __future__ import annotations

from typing import Final, Literal

from leadtui.api.models import UsageDay

Metric = Literal["requests", "credits"]

BLOCKS: Final = " ▁▂▃▄▅▆▇█"
HEIGHT: Final = 3  # rows of bars
MAX_BAR_WIDTH: Final = 3


def _count(day: UsageDay, metric: Metric) -> int:
    return day.requests if metric == "requests" else day.credits_used


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def chart_lines(days: list[UsageDay], metric: Metric, selected: int, width: int) -> list[str]:
    """The chart in `width` columns: HEIGHT rows of bars (the selected day's marked with a
    caret under it), the dates, and the selected day's numbers."""
    if not days:
        return ["No usage in these days."]
    values = [_count(day, metric) for day in days]
    top = max(values) or 1
    axis = max(len(f"{top:,}"), 1)
    bar = max(1, min(MAX_BAR_WIDTH, (width - axis - 2) // len(days)))
    lines = []
    for row in range(HEIGHT, 0, -1):
        label = f"{top:,}" if row == HEIGHT else ("0" if row == 1 else "")
        cells = []
        for value in values:
            eighths = round(value / top * HEIGHT * 8)
            level = max(0, min(8, eighths - (row - 1) * 8))
            if row == 1 and value > 0 and level == 0:
                level = 1  # a day with any use shows
            cells.append(BLOCKS[level] * bar)
        lines.append(f"{label:>{axis}} ┤{''.join(cells)}")
    lines.append(f"{'':>{axis}}  {_date_axis(days, bar, selected)}")
    day = days[selected]
    other: Metric = "credits" if metric == "requests" else "requests"
    lines.append(
        f"{day.date}: {_plural(_count(day, metric), metric[:-1])} · "
        f"{_plural(_count(day, other), other[:-1])}   (←/→ day · c {other} per day)"
    )
    return lines


def _date_axis(days: list[UsageDay], bar: int, selected: int) -> str:
    """MM-DD under the first day of each week that has room for it; ▲ under the selected day."""
    text = [" "] * (len(days) * bar)
    mark = selected * bar + (bar - 1) // 2
    for index in range(0, len(days), 7):
        label = days[index].date[5:10]
        start = index * bar
        clear = not start - 1 <= mark <= start + len(label)
        if start + len(label) <= len(text) and clear:
            text[start : start + len(label)] = list(label)
    text[mark] = "▲"
    return "".join(text).rstrip()
