"""Searches list, search detail, the unlocked leads table and unlocking, against the sandbox."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import SearchRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.lead_detail import LeadDetail
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.search_detail import SearchDetailScreen
from leadtui.ui.screens.searches import SearchesScreen
from leadtui.ui.widgets.lead_table import LeadTable
from tests.ui.pilot import settle
from tests.ui.screen import screen_text, wait_until
from tests.ui.search_walk import confirm_suggested_unlock


def _request(activity: str = "Plumber", city: str = "Paris") -> SearchRequest:
    return SearchRequest.model_validate(
        {
            "activities": [{"name": activity}],
            "countries": [{"name": "France"}],
            "localisations": [{"name": city}],
        }
    )


async def test_list_loads_more_as_you_scroll_and_filters(build_app: Any, client: Any) -> None:
    for i in range(30):
        await client.searches.create(_request(f"Trade {i:02d}", "Lyon" if i == 3 else "Paris"))
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SearchesScreen)
        assert len(screen.searches) == 25  # one page, not everything
        assert "more on the server" in screen_text(app)
        for _ in range(22):
            await pilot.press("down")
        await settle(pilot)
        assert len(screen.searches) == 30
        assert "all loaded" in screen_text(app)
        await pilot.press("slash", *"lyon")
        await wait_until(pilot, lambda: "1 of 30 shown · filter: lyon" in screen_text(app))
        assert "Trade 03" in screen_text(app)


async def test_unlock_from_detail_updates_counts_badge_and_table(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    search = await client.searches.create(_request())
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SearchDetailScreen)
        assert "Unlocked 0" in screen_text(app)
        assert "No results unlocked yet" in screen_text(app)
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, UnlockCount))
        dialog_input = app.screen.query_one("#unlock-count-input")
        dialog_input.value = "0"
        await pilot.pause()
        assert "a whole number from 1 to 3,087" in screen_text(app)
        dialog_input.value = "120"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        assert "120 credits" in screen_text(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.credits == 10_000 - 120)
        await settle(pilot)
        assert isinstance(app.screen, SearchDetailScreen)
        assert "Unlocked 120" in screen_text(app)
        table = app.screen.query_one(LeadTable)
        assert table.rows.row_count == 120
        assert "leadId" in table.rows.columns
        assert "company" in table.rows.columns
        assert f"{search.searchId}-000001" in screen_text(app)
        await pilot.press("end")
        await settle(pilot)
        assert table.cursor_row == 119
        assert f"{search.searchId}-000120" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetail)
        assert "website" in screen_text(app)
        await pilot.press("escape")
        me = (await client.me()).credits
        assert me == 10_000 - 120


async def test_insufficient_credits_shows_balance_and_shortfall(
    build_app: Any, make_client: Any, sandbox_http: Any
) -> None:
    low = make_client("sk_demo_low")
    await low.searches.create(_request())
    other = await low.searches.create(_request("Baker"))
    app = build_app("sk_demo_low")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, UnlockCount))
        await pilot.press("enter")  # the 5 the balance pays for
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        # Meanwhile the account spends 3 credits elsewhere: re-checked before sending, the
        # balance no longer covers it, in the server's own words; nothing is sent.
        await low.exports.create(other.searchId, 3)
        posts = len(await _unlocks(sandbox_http))
        await pilot.press("y")
        await wait_until(pilot, lambda: "Not enough credits" in screen_text(app))
        text = " ".join(line.strip("│ ") for line in screen_text(app).splitlines())
        assert "Unlocking 5 results costs 5 credits; the account has 2. Nothing was sent." in text
        assert "insufficient_credits" in text
        assert app.credits == 2
        assert len(await _unlocks(sandbox_http)) == posts


async def _unlocks(sandbox_http: Any) -> list[Any]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


async def test_row_n_of_m_follows_the_cursor_and_enter_opens_that_row(
    build_app: Any, client: Any
) -> None:
    search = await client.searches.create(_request())
    await client.exports.create(search.searchId, 60)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "row 1 of 60" in screen_text(app))
        await pilot.press("down", "down", "down")
        assert "row 4 of 60" in screen_text(app)  # after the key, not one key behind
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LeadDetail))
        text = screen_text(app)
        assert f"Lead 4 of {search.searchId}" in text
        assert f"{search.searchId}-000004" in text


async def test_one_detail_on_the_stack_and_esc_goes_to_the_list(build_app: Any) -> None:
    from leadtui.ui.model.search_draft import ItemDraft
    from leadtui.ui.screens.search_builder import NewSearchScreen

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        for city in ("Paris", "Lyon"):
            await pilot.press("3")
            await wait_until(pilot, lambda: isinstance(app.screen, NewSearchScreen))
            builder = app.screen
            assert isinstance(builder, NewSearchScreen)
            builder.draft = type(builder.draft)()
            for section, name in (("activities", "Plumber"), ("countries", "France")):
                builder.draft.section(section).append(ItemDraft(name=name))
            builder.draft.localisations.append(ItemDraft(name=city))
            builder._draw()
            await pilot.press("ctrl+s")
            await wait_until(
                pilot,
                lambda city=city: (
                    isinstance(app.screen, SearchDetailScreen) and city in screen_text(app)
                ),
            )
        assert len(app.screen_stack) == 2  # the list and the newest detail
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchesScreen))
        assert "2 searches" in screen_text(app)


async def test_returning_to_the_list_keeps_its_rows_and_refreshes_counts(
    build_app: Any, client: Any
) -> None:
    await client.searches.create(_request())
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await confirm_suggested_unlock(app, pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: "Unlocked 100" in screen_text(app))
        await pilot.press("escape")
        # At once: the rows as they were (never a blank, loading table) ...
        assert "srch_000001" in screen_text(app)
        # ... then the server's counts in place.
        await wait_until(pilot, lambda: "  100  " in screen_text(app))
