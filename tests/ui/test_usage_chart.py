"""The usage chart: dates, a scale, requests or credits per day, the selected day's numbers."""

from __future__ import annotations

import re
from typing import Any

import httpx

from leadtui.api.models import UsageDay
from leadtui.ui.model.usage_chart import chart_lines
from tests.ui.jobs_seed import Held, requests_log
from tests.ui.pilot import wait_for_text
from tests.ui.screen import flat_text, footer_text, screen_text, wait_until

DAYS = [UsageDay(date=f"2026-01-{n:02d}", requests=n, credits_used=2 * n) for n in range(1, 31)]


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


async def test_the_chart_appears_when_usage_arrives_with_dates_scale_and_the_day(
    build_app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    held = Held(sandbox_app, hold="/api/v1/usage", reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(80, 24)) as pilot:
        # The balance and the summary are up while GET /usage is still on its way (the line is
        # on the first frame already): a line says so, no chart.
        shown = ("◆ 10,000 credits", "Account Demo Co", "Loading usage…")
        await wait_until(pilot, lambda: all(part in flat_text(app) for part in shown))
        assert "┤" not in screen_text(app)
        assert "Credits/requests" not in footer_text(app)
        held.release.set()
        await wait_for_text(pilot, "(←/→ day · c credits per day)")
        text = screen_text(app)
        assert "Loading usage…" not in text
        # The server counts the requests it answered: the start's one GET /me, then GET /usage.
        assert "Last 30 days  2 requests · 0 credits used" in text
        assert [r["path"] for r in await requests_log(sandbox_http)] == [
            "/api/v1/me",
            "/api/v1/usage",
        ]
        requests = "2"
        lines = text.splitlines()
        scale = [line.strip() for line in lines if "┤" in line]
        assert [line.split("┤")[0].strip() for line in scale] == [requests, "", "0"]
        dates = next(line for line in lines if "▲" in line)
        assert re.findall(r"\d\d-\d\d", dates) == ["12-03", "12-10", "12-17", "12-24"]
        assert dates.rstrip().endswith("▲")  # today, the last day, is selected
        today = f"2026-01-01: {requests} requests · 0 credits"
        assert any(line.strip().startswith(today) for line in lines)
        # The chart has the focus: its keys are in the footer and in the help at once.
        assert footer_text(app).startswith("c Credits/requests")
        await pilot.press("question_mark")
        await wait_for_text(pilot, "Keys — Account")
        help_text = screen_text(app)
        for key, does in (("←", "Day before"), ("→", "Day after"), ("c", "Credits/requests")):
            assert re.search(rf"│\s+{key}\s+{does}\s+│", help_text), (key, does)


async def test_quitting_while_the_usage_loads_ends_cleanly(
    build_app: Any, sandbox_app: Any
) -> None:
    held = Held(sandbox_app, hold="/api/v1/usage", reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_text(pilot, "Loading usage…")
        await pilot.press("ctrl+q")  # the load is cancelled while GET /usage is held
    assert app.return_code == 0
