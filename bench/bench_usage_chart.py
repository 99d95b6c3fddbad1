"""The usage chart: what it costs the Account screen's first frame, and what a draw costs.

Two comparisons, side by side in one run:

1. First frame. leadtui is launched in tmux (a real terminal emulator, as in
   bench_startup.py), alternating two ways: as shipped, where the chart's modules are imported
   only when GET /usage answers, and with the chart's modules imported before anything is
   drawn. The time is taken from `tmux new-session` until `capture-pane` shows the marker:
   the header's "4 Jobs" for the first frame, the chart's "(←/→ day" for the chart on screen
   (GET /me and GET /usage included). The sandbox runs in this process; leadtui gets its key
   from LEADTUI_API_KEY. `python -X importtime` gives the chart modules' own import time.
   leadtui's bytecode is written first, as bench_startup.py does.

2. Draw. In a headless app 80 columns wide, the chart's draw of 30 days (the bars, scale,
   dates and the selected day's line, then its lines rendered) against Textual's Sparkline of
   the same 30 values, 3 rows high like the chart's bars. Each draw computes the content and
   renders the widget's lines, as a frame does; the median of alternating rounds is taken.

    .venv/bin/python bench/bench_usage_chart.py [--runs 11] [--draws 500]

Goal: the first frame as shipped ≤ 1.0× the one with the chart imported first (within noise).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import compile_leadtui

AS_SHIPPED = """
import sys
from leadtui.cli.main import main
sys.exit(main([]))
"""

# The same launch, with what the Account screen used to import before its first frame.
CHART_FIRST = """
import sys
import leadtui.ui.widgets.usage_chart
from leadtui.cli.main import main
sys.exit(main([]))
"""

FIRST_FRAME = "4 Jobs"
CHART_SHOWN = "(←/→ day"
CHART_MODULES = ("leadtui.ui.model.usage_chart", "leadtui.ui.widgets.usage_chart")
SOCKET = f"leadtui-bench-chart-{os.getpid()}"
TIMEOUT = 20.0


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    return done.stdout


def time_to_markers(command: list[str], markers: list[str], env: dict[str, str]) -> list[float]:
    """Seconds from launching `command` in a 100×30 tmux pane until each marker is on screen."""
    exports = " ".join(f"{k}={v}" for k, v in env.items())
    shell = f"env {exports} {' '.join(command)}"
    found: list[float] = []
    start = time.perf_counter()
    tmux("new-session", "-d", "-s", "run", "-x", "100", "-y", "30", shell)
    try:
        while time.perf_counter() - start < TIMEOUT:
            screen = tmux("capture-pane", "-p", "-t", "run")
            while len(found) < len(markers) and markers[len(found)] in screen:
                found.append(time.perf_counter() - start)
            if len(found) == len(markers):
                return found
            time.sleep(0.005)
        raise RuntimeError(f"{markers[len(found)]!r} did not appear within {TIMEOUT}s")
    finally:
        tmux("kill-session", "-t", "run")


def chart_import_ms(python: str) -> float:
    """The chart modules' own import time (`-X importtime`, self column), after the Account
    screen's imports, in milliseconds."""
    code = "import leadtui.ui.screens.account, leadtui.ui.widgets.usage_chart"
    done = subprocess.run(
        [python, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True
    )
    total = 0
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if match and match.group(2) in CHART_MODULES:
            total += int(match.group(1))
    return total / 1000


def first_frame(runs: int) -> None:
    from leadtui.sandbox.embedded import EmbeddedSandbox

    python = sys.executable
    with tempfile.TemporaryDirectory() as home, EmbeddedSandbox() as sandbox:
        shipped_file, chart_file = Path(home) / "shipped.py", Path(home) / "chart_first.py"
        shipped_file.write_text(AS_SHIPPED)
        chart_file.write_text(CHART_FIRST)
        env = {
            "XDG_CONFIG_HOME": f"{home}/config",
            "XDG_STATE_HOME": f"{home}/state",
            "TERM": "xterm-256color",
            "LEADTUI_BASE_URL": sandbox.base_url,
            "LEADTUI_API_KEY": "sk_demo_full",
        }
        markers = [FIRST_FRAME, CHART_SHOWN]
        # A long-lived session keeps the tmux server up, so its start is not measured.
        tmux("new-session", "-d", "-s", "keepalive", "-x", "100", "-y", "30", "sleep 3600")
        try:
            # One warm-up each: the first run pays for cold .pyc and disk caches.
            time_to_markers([python, str(shipped_file)], markers, env)
            time_to_markers([python, str(chart_file)], markers, env)
            shipped: list[list[float]] = []
            chart_first: list[list[float]] = []
            for _ in range(runs):
                shipped.append(time_to_markers([python, str(shipped_file)], markers, env))
                chart_first.append(time_to_markers([python, str(chart_file)], markers, env))
        finally:
            tmux("kill-server")
    print(f"Account screen in tmux, median of {runs} launches each, alternating:")
    for index, what in enumerate(("first frame (header)", "chart on screen")):
        lazy = statistics.median(run[index] for run in shipped) * 1000
        eager = statistics.median(run[index] for run in chart_first) * 1000
        print(
            f"  {what:<22} as shipped {lazy:6.0f} ms · chart imported first {eager:6.0f} ms"
            f" · ratio {lazy / eager:.2f}x"
        )
    import_ms = chart_import_ms(python)
    lazy_frame = statistics.median(run[0] for run in shipped) * 1000
    print(
        f"  the chart modules' own import: {import_ms:.1f} ms "
        f"({import_ms / lazy_frame:.1%} of the first frame), now paid when GET /usage answers"
    )


async def draw_times(draws: int, rounds: int) -> tuple[float, float]:
    """Median microseconds per draw: (usage chart, Sparkline), 30 days at 80 columns."""
    from textual.app import App, ComposeResult
    from textual.geometry import Region
    from textual.widgets import Sparkline

    from leadtui.api.models import UsageDay
    from leadtui.ui.widgets.usage_chart import UsageChart

    rng = random.Random(7)
    days = [
        UsageDay(
            date=f"2026-01-{n:02d}", requests=rng.randint(0, 400), credits_used=rng.randint(0, 120)
        )
        for n in range(1, 31)
    ]
    values = [float(day.requests) for day in days]

    class Both(App[None]):
        CSS = "UsageChart, Sparkline { width: 80; } Sparkline { height: 3; }"

        def compose(self) -> ComposeResult:
            yield UsageChart(id="chart")
            yield Sparkline(values, id="sparkline")

    app = Both()
    async with app.run_test(size=(80, 24)) as pilot:
        chart, sparkline = app.query_one(UsageChart), app.query_one(Sparkline)
        chart.days, chart.selected = days, len(days) - 1
        chart.action_day(0)  # draws at the width it was laid out at
        await pilot.pause()
        chart_region = Region(0, 0, chart.size.width, chart.size.height)
        spark_region = Region(0, 0, sparkline.size.width, sparkline.size.height)
        assert chart.size.width == sparkline.size.width == 80, (chart.size, sparkline.size)

        def draw_chart() -> None:
            chart.action_day(0)  # the chart's content, computed again
            chart.render_lines(chart_region)

        def draw_sparkline() -> None:
            sparkline.data = list(values)
            sparkline.refresh()  # the same values: the reactive alone would not redraw
            sparkline.render_lines(spark_region)

        chart_us: list[float] = []
        spark_us: list[float] = []
        for _ in range(rounds):
            for draw, into in ((draw_chart, chart_us), (draw_sparkline, spark_us)):
                start = time.perf_counter()
                for _ in range(draws):
                    draw()
                into.append((time.perf_counter() - start) / draws * 1e6)
            await pilot.pause()
    return statistics.median(chart_us), statistics.median(spark_us)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="launches of each kind")
    parser.add_argument("--draws", type=int, default=500, help="draws per round")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    compile_leadtui()  # measured as installed, with leadtui's bytecode on disk
    if shutil.which("tmux") is None:
        print("tmux is needed for the first-frame part; drawing only", file=sys.stderr)
    else:
        first_frame(args.runs)
    chart_us, spark_us = asyncio.run(draw_times(args.draws, args.rounds))
    print(f"Draw of 30 days at 80 columns, median of {args.rounds} rounds of {args.draws}:")
    print(
        f"  usage chart (5 rows) {chart_us:6.0f} µs · Sparkline (3 rows) {spark_us:6.0f} µs"
        f" · ratio {chart_us / spark_us:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
