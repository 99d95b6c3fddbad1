"""Results of exports and extractions: real values in every cell, on the virtual table."""

from __future__ import annotations

from typing import Any

from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.widgets.job_tables import ExportTable, ExtractionTable
from tests.ui import jobs_seed
from tests.ui.screen import screen_text, wait_until


async def _open_results(app: Any, pilot: Any, table_type: type, job_id: str) -> None:
    await app.workers.wait_for_complete()
    await pilot.press("4")
    await wait_until(pilot, lambda: isinstance(app.screen, JobsScreen))
    await app.workers.wait_for_complete()
    await pilot.pause()
    table = app.screen.query_one(table_type)
    table.focus()
    table.move_cursor(row=table.get_row_index(job_id))
    await pilot.pause()
    await pilot.press("v")
    await wait_until(pilot, lambda: isinstance(app.screen, JobResultsScreen))


def _result_lines(app: Any, marker: str) -> list[str]:
    return [line for line in screen_text(app).splitlines() if marker in line]


async def test_export_results_show_the_values(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=150)
    sandbox_clock.advance(5)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_results(app, pilot, ExportTable, export.exportId)
        search_id = export.searchId
        await wait_until(pilot, lambda: f"{search_id}-000001" in screen_text(app))
        rows = _result_lines(app, f"{search_id}-0")
        assert len(rows) > 10
        assert not any("—" in row for row in rows)
        assert "150 results" in screen_text(app)
        # Every row can be reached: no cap on what is shown.
        await pilot.press("end")
        await wait_until(pilot, lambda: f"{search_id}-000150" in screen_text(app))
        assert "row 150" in screen_text(app)


async def test_live_extraction_results_grow_in_place(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.4)  # running: part of the results found
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_results(app, pilot, ExtractionTable, extraction.extractionId)
        await wait_until(pilot, lambda: "live" in screen_text(app))
        await wait_until(pilot, lambda: "row 1" in screen_text(app))
        first = _result_lines(app, "  ")[2]
        await pilot.press("down")
        assert "row 2" in screen_text(app)
        sandbox_clock.advance(2)  # every result found, then archived
        await app.jobs.tick()
        await wait_until(pilot, lambda: "archived: final" in screen_text(app))
        assert "row 2" in screen_text(app)  # the cursor stayed where it was
        assert first in screen_text(app)  # and so did the rows read before
        assert "—" not in screen_text(app)
