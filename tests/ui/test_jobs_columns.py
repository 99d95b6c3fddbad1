"""The jobs tables fit the terminal: every column whole at 80 columns, a date without its
time when the full dates do not fit, and the full ones back when there is room."""

from __future__ import annotations

import re
from typing import Any

import pytest

from leadtui.ui.widgets.job_columns import Column, ExportColumns, Layout, layouts
from tests.ui import jobs_seed
from tests.ui.pilot import wait_until
from tests.ui.screen import screen_text

# Times drawn in UTC, whatever the machine's zone.
pytestmark = pytest.mark.usefixtures("utc")


def _exports_block(app: Any) -> list[str]:
    """The Exports panel's lines: its header, then its rows."""
    lines = screen_text(app).splitlines()
    start = next(i for i, line in enumerate(lines) if "│ Export " in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    return lines[start:end]


def _rows(app: Any) -> list[str]:
    return [line for line in _exports_block(app) if line.startswith("│ exp_")]


async def test_every_exports_column_is_whole_at_80_columns_and_dates_grow_back(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    made = await jobs_seed.exports(client, 3)
    sandbox_clock.advance(0.2)  # processing: the widest status
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await jobs_seed.open_jobs(pilot)
        await wait_until(pilot, lambda: len(_rows(app)) == len(made))
        await wait_until(pilot, lambda: "processing" in screen_text(app))
        header = _exports_block(app)[0]
        assert re.fullmatch(
            r"│ Export +Search +Results +Status +Updated +Created +│", header.rstrip()
        ), header
        await wait_until(
            pilot, lambda: all(row.rstrip().endswith("2026-01-01     │") for row in _rows(app))
        )
        assert "◐ processing" in "".join(_rows(app))
        assert "00:00" not in "".join(_rows(app))  # the date alone: no column is cut
        await pilot.resize_terminal(100, 30)
        await wait_until(pilot, lambda: all("2026-01-01 00:00" in row for row in _rows(app)))
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: "00:00" not in "".join(_rows(app)))


async def test_column_keys_pick_only_the_columns_shown(build_app: Any, client: Any) -> None:
    await jobs_seed.exports(client, 2)
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await jobs_seed.open_jobs(pilot)
        await wait_until(pilot, lambda: len(_rows(app)) == 2)
        await pilot.press("left", "s")  # from the first column to the last one shown
        await wait_until(pilot, lambda: "sorted by Created ▲" in screen_text(app))
        assert "[Created ▲]" in _exports_block(app)[0]
        await pilot.press("right", "s")  # and on round to the first
        await wait_until(pilot, lambda: "sorted by Export ▲" in screen_text(app))


def test_narrower_layouts_shorten_first_then_leave_out_the_optional_columns() -> None:
    assert layouts(ExportColumns.COLUMNS) == [
        Layout(6, short=False),  # every column in full
        Layout(6, short=True),  # Created without its time
        Layout(5, short=True),  # without Created
        Layout(4, short=True),  # without Updated
    ]
    plain = (Column("id", "Id"), Column("name", "Name"))
    assert layouts(plain) == [Layout(2, short=False)]
