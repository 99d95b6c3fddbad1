"""Builder (empty, valid, invalid), ConfirmSpend, searches list and leads table, at two sizes."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from leadtui.api.models import SearchRequest
from leadtui.ui.model.search_draft import ItemDraft
from tests.ui.pilot import settle

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((80, 24), id="80x24")]
# The smallest terminal the main screens are laid out for (an SSH pane).
WITH_SMALL = [*SIZES, pytest.param((60, 20), id="60x20")]


@pytest.fixture(autouse=True)
def frozen_ids(fixed_request_ids: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The idempotency key's short form is on ConfirmSpend.
    key = uuid.UUID("3f9a2c1b-0000-4000-8000-000000000000")
    monkeypatch.setattr("leadtui.api.keys.uuid.uuid4", lambda: key)


def _request(activity: str, city: str) -> SearchRequest:
    return SearchRequest.model_validate(
        {
            "activities": [{"name": activity}],
            "countries": [{"name": "France"}],
            "localisations": [{"name": city}],
        }
    )


async def _searches(pilot: Any, unlock: int = 0) -> None:
    client = pilot.app.client
    for activity, city in (("Plumber", "Paris"), ("Electrician", "Lyon"), ("Baker", "Nice")):
        search = await client.searches.create(_request(activity, city))
    if unlock:
        await client.exports.create(search.searchId, unlock)
    await pilot.app.refresh_identity()


def _builder(fill: str) -> Any:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = pilot.app.screen
        if fill:
            for section, name in (
                ("activities", "Plumber"),
                ("countries", "France"),
                ("localisations", "Paris"),
            ):
                screen.draft.section(section).append(ItemDraft(name=name, queryNames="a, b"))
            if fill == "invalid":
                screen.draft.activities[0].name = "x" * 161
                screen.draft.localisations.clear()
            screen.selected = "activities.0"
            screen._draw()
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", WITH_SMALL)
@pytest.mark.parametrize("fill", ["empty", "valid", "invalid"])
def test_builder(snap_compare: Any, build_app: Any, size: tuple[int, int], fill: str) -> None:
    run_before = _builder("" if fill == "empty" else fill)
    assert snap_compare(build_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", WITH_SMALL)
def test_searches_list(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await _searches(pilot)
        await pilot.press("2")
        await settle(pilot)

    assert snap_compare(build_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_leads_table(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await _searches(pilot, unlock=60)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("down", "down", "right")
        await settle(pilot)

    assert snap_compare(build_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_confirm_spend(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await _searches(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        # The unlock worker waits on its dialogs: pause, never wait for workers, from here.
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("enter")  # the suggested 100
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(build_app(), terminal_size=size, run_before=run_before)
