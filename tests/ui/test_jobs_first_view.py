"""Jobs, first opened after an unlock elsewhere in the app: never "live" over a partial list.
Until both first pages are read whole, the status line says it is reading and the tables stay
empty; then every export (not only this session's) and every extraction is there."""

from __future__ import annotations

from typing import Any

from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui import jobs_seed
from tests.ui.pilot import settle, wait_for_text, wait_until
from tests.ui.screen import flat_text
from tests.ui.search_walk import confirm_suggested_unlock


async def test_jobs_first_view_after_an_unlock_is_both_whole_first_pages(
    build_app: Any, client: Any, sandbox_app: Any
) -> None:
    earlier = await jobs_seed.exports(client, 2)  # made before this session, by another surface
    drafted = await jobs_seed.extraction(client)
    held = jobs_seed.Held(sandbox_app, hold="/api/v1/extractions", reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await wait_for_text(pilot, "srch_000001")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await settle(pilot)
        await confirm_suggested_unlock(app, pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await settle(pilot)
        unlocked = sorted(app.jobs.board.exports)
        assert len(unlocked) == 1  # this session's export, followed off the dashboard
        await app.jobs.tick()  # the hidden dashboard's tick: the followed export only
        assert held.held == 0
        await pilot.press("4")
        await wait_until(pilot, lambda: isinstance(app.screen, JobsScreen))
        await wait_until(pilot, lambda: held.held > 0)  # the extractions list is on its way
        text = await wait_for_text(pilot, "reading exports and extractions…")
        assert "live" not in text
        assert unlocked[0] not in text  # no partial list: not this session's export alone
        assert "none yet" not in text
        held.release.set()
        text = await wait_for_text(pilot, "● live")
        for export in earlier:
            assert export.exportId in text
        assert unlocked[0] in text
        assert drafted.extractionId in flat_text(app)
