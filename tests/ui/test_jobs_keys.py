"""The jobs tables move, filter, sort, describe and copy ids with the keys every table has."""

from __future__ import annotations

import json
from typing import Any

from leadtui.ui.dialogs.describe import Describe
from leadtui.ui.widgets.job_tables import ExportTable
from tests.ui import jobs_seed
from tests.ui.screen import screen_text, wait_until


def _export_rows(app: Any) -> list[str]:
    return [line for line in screen_text(app).splitlines() if line.startswith("│ exp_")]


async def test_filter_state_filter_sort_describe_and_copy_id(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    made = await jobs_seed.exports(client, 4, size=2)
    failed = made[1].exportId
    await jobs_seed.fail_export(sandbox_http, failed)
    app = build_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot)
        table = app.screen.query_one(ExportTable)
        await wait_until(pilot, lambda: len(_export_rows(app)) == 4)
        # Movement: G to the last (oldest), g back to the first (newest).
        await pilot.press("G")
        assert table.focused_row is not None
        assert table.focused_row.exportId == made[0].exportId
        await pilot.press("g")
        assert table.focused_row is not None
        assert table.focused_row.exportId == made[-1].exportId
        # Quick filter by state: moving, then failed.
        await pilot.press("f", "f")
        await wait_until(pilot, lambda: "1 of 4 shown · only failed" in screen_text(app))
        assert [failed in line for line in _export_rows(app)] == [True]
        await pilot.press("f", "f")  # ready, then every state again
        await wait_until(pilot, lambda: len(_export_rows(app)) == 4)
        # A typed filter on any column, and `!` to negate it.
        await pilot.press("slash", *f"!{failed}", "enter")
        await wait_until(pilot, lambda: f"3 of 4 shown · filter: !{failed}" in screen_text(app))
        assert not any(failed in line for line in _export_rows(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: len(_export_rows(app)) == 4)
        # Sort by the picked column (Export id), then reversed: the arrow is in the header.
        await pilot.press("s")
        await wait_until(pilot, lambda: "Export ▲" in screen_text(app))
        ids = [line.split()[1] for line in _export_rows(app)]
        assert ids == sorted(e.exportId for e in made)
        await pilot.press("s")
        await wait_until(pilot, lambda: "Export ▼" in screen_text(app))
        assert "sorted by Export ▼" in screen_text(app)
        await pilot.press("g", "I")
        assert app.clipboard == max(e.exportId for e in made)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, Describe))
        await wait_until(pilot, lambda: '"exportId":' in screen_text(app))
        await pilot.press("Y")
        assert json.loads(app.clipboard)["exportId"] == max(e.exportId for e in made)


async def test_a_ready_export_says_where_d_saves_it(
    build_app: Any, client: Any, sandbox_clock: Any, tmp_path: Any
) -> None:
    from leadtui.config.settings import Settings

    (export,) = await jobs_seed.exports(client, 1)
    sandbox_clock.advance(1)
    folder = tmp_path / "here"
    app = build_app(settings=Settings(download_dir=folder))
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export.exportId)
        await wait_until(pilot, lambda: "✓ ready" in screen_text(app))
        await wait_until(
            pilot, lambda: f"d saves {export.exportId}.zip to {folder}" in screen_text(app)
        )
