"""The usage chart: dates, a scale, requests or credits per day, the selected day's numbers."""

from __future__ import annotations

from typing import Any

from leadtui.ui.model.usage_chart import Day, chart_lines
from tests.ui.screen import screen_text, wait_until

DAYS = [Day(f"2026-01-{n:02d}", requests=n, credits=2 * n) for n in range(1, 31)]


def test_bars_scale_dates_and_the_selected_day_fit_80_columns() -> None:
    lines = chart_lines(DAYS, "requests", selected=29, width=78)
    assert all(len(line) <= 78 for line in lines)
    assert lines[0].startswith("30 ┤")  # the scale's top
    assert lines[2].startswith(" 0 ┤")
    assert "01-08" in lines[3]
    assert lines[3].rstrip().endswith("▲")  # under the selected (last) day
    assert lines[-1].startswith("2026-01-30: 30 requests · 60 credits")
    credits = chart_lines(DAYS, "credits", selected=0, width=78)
    assert credits[0].startswith("60 ┤")
    assert credits[-1].startswith("2026-01-01: 2 credits · 1 request")


async def test_the_account_chart_switches_metric_and_day(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 34)) as pilot:
        await wait_until(pilot, lambda: "(←/→ day · c credits per day)" in screen_text(app))
        today = next(line for line in screen_text(app).splitlines() if "(←/→ day" in line)
        assert "requests" in today
        await pilot.press("c")
        await wait_until(pilot, lambda: "(←/→ day · c requests per day)" in screen_text(app))
        await pilot.press("left")
        day_before = next(line for line in screen_text(app).splitlines() if "(←/→ day" in line)
        assert day_before.split(":")[0] != today.split(":")[0]
