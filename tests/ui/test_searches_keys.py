"""Searches and a search's leads: describe, copy id, filter and sort, read off the screen."""

from __future__ import annotations

import json
from typing import Any

from leadtui.ui.dialogs.describe import Describe
from leadtui.ui.screens.search_detail import SearchDetailScreen
from leadtui.ui.screens.searches import SearchesScreen
from tests.ui.screen import screen_text, wait_until
from tests.ui.search_walk import ONE_EACH


async def _open_detail(app: Any, pilot: Any, search_id: str) -> None:
    """Searches, then Enter on the newest search (`search_id`): its detail."""
    await pilot.press("2")
    await wait_until(pilot, lambda: search_id in screen_text(app))
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))


async def test_a_search_is_described_whole_and_its_id_copied(build_app: Any, client: Any) -> None:
    search = await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await wait_until(pilot, lambda: search.searchId in screen_text(app))
        assert isinstance(app.screen, SearchesScreen)
        await pilot.press("I")
        assert app.clipboard == search.searchId
        await pilot.press("D")
        await wait_until(pilot, lambda: f'"searchId": "{search.searchId}",' in screen_text(app))
        assert isinstance(app.screen, Describe)
        await pilot.press("Y")
        assert json.loads(app.clipboard)["searchId"] == search.searchId
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchesScreen))


async def test_leads_filter_sort_describe_and_copy_id(build_app: Any, client: Any) -> None:
    search = await client.searches.create(ONE_EACH)
    await client.exports.create(search.searchId, 30)
    page = await client.searches.results(search.searchId)
    leads = [lead.model_extra or {} for lead in page.items]
    app = build_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await _open_detail(app, pilot, search.searchId)
        await wait_until(pilot, lambda: f"{search.searchId}-000001" in screen_text(app))
        company = str(leads[4]["company"])
        await pilot.press("slash", *company, "enter")
        await wait_until(pilot, lambda: "of 30 shown · filter:" in screen_text(app))
        rows = [line for line in screen_text(app).splitlines() if f"{search.searchId}-0" in line]
        assert rows
        assert all(company in row for row in rows)
        await pilot.press("I")
        assert app.clipboard == leads[4]["leadId"]
        await pilot.press("D")
        await wait_until(pilot, lambda: f'"company": "{company}",' in screen_text(app))
        await pilot.press("escape", "escape")  # the dialog, then the filter
        await wait_until(pilot, lambda: "shown" not in screen_text(app))
        assert isinstance(app.screen, SearchDetailScreen)
        await pilot.press("s")  # by the focused column: leadId
        await wait_until(pilot, lambda: "sorted by leadId ▲" in screen_text(app))
        await pilot.press("s", "g")
        await wait_until(pilot, lambda: "sorted by leadId ▼" in screen_text(app))
        await pilot.press("I")
        assert app.clipboard == f"{search.searchId}-000030"


async def test_jump_from_a_search_to_its_exports_and_back(build_app: Any, client: Any) -> None:
    other = await client.searches.create(ONE_EACH)
    await client.exports.create(other.searchId, 2)
    search = await client.searches.create(ONE_EACH)
    mine = await client.exports.create(search.searchId, 3)
    app = build_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await _open_detail(app, pilot, search.searchId)
        await pilot.press("E")
        await wait_until(
            pilot, lambda: f"1 of 2 shown · filter: {search.searchId}" in screen_text(app)
        )
        exports = [line for line in screen_text(app).splitlines() if line.startswith("│ exp_")]
        assert [mine.exportId in line for line in exports] == [True]
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        assert app.screen.search.searchId == search.searchId
        await wait_until(pilot, lambda: "Unlocked 3" in screen_text(app))


async def test_the_sorted_column_shows_its_arrow_in_its_own_heading(
    build_app: Any, client: Any
) -> None:
    await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await wait_until(pilot, lambda: "srch_000001" in screen_text(app))
        await pilot.press("right", "s")  # Results, ascending
        await wait_until(pilot, lambda: "sorted by Results ▲" in screen_text(app))
        heading = next(line for line in screen_text(app).splitlines() if "Created" in line)
        assert "[Results ▲]" in heading
        await pilot.press("right")  # the brackets move on; the arrow stays where it sorts
        await wait_until(pilot, lambda: "[Unlocked]" in screen_text(app))
        heading = next(line for line in screen_text(app).splitlines() if "Created" in line)
        assert "Results ▲" in heading


async def test_the_leads_status_line_counts_the_rows_the_filter_shows(
    build_app: Any, client: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    await client.exports.create(search.searchId, 30)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_detail(app, pilot, search.searchId)
        await wait_until(pilot, lambda: "row 1 of 30 ·" in screen_text(app))
        await pilot.press("slash", *"000012", "enter")
        await wait_until(pilot, lambda: "1 of 30 shown · filter: 000012" in screen_text(app))
        assert "Unlocked leads: row 1 of 1 shown ·" in screen_text(app)
        await pilot.press("slash", *"no such lead", "enter")
        await wait_until(pilot, lambda: "no row matches the filter" in screen_text(app))


async def test_unlock_keeps_its_place_in_the_footer_at_80_columns(
    build_app: Any, client: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    await client.exports.create(search.searchId, 30)
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_detail(app, pilot, search.searchId)
        await wait_until(pilot, lambda: "row 1 of 30" in screen_text(app))
        footer = screen_text(app).splitlines()[-1]
        assert "u Unlock more" in footer
        assert footer.rstrip().endswith("? Help  ^p palette")


async def test_2_opens_the_searches_list_not_the_search_last_opened(
    build_app: Any, client: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_detail(app, pilot, search.searchId)
        await pilot.press("4")
        await wait_until(pilot, lambda: "Extractions" in screen_text(app))
        await pilot.press("2")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchesScreen))
        await wait_until(pilot, lambda: "Enter opens one" in screen_text(app))
        await _open_detail(app, pilot, search.searchId)
        await pilot.press("2")  # on the search itself too
        await wait_until(pilot, lambda: isinstance(app.screen, SearchesScreen))
