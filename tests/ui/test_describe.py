"""Describe: a whole record as JSON, with a cursor on a field, search and copy."""

from __future__ import annotations

import json
from typing import Any

from textual.app import App

from leadtui.ui.dialogs.describe import Describe
from tests.ui.screen import screen_text, toasts_text, wait_until

RECORD: dict[str, Any] = {
    "searchId": "srch_000042",
    "status": "ready",
    "counts": {"results": 1333, "unlocked": 300},
    "activities": [{"name": "Plumber"}, {"name": "Electrician"}],
    "undocumented": {"region": "Île-de-France"},
}


class Harness(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Describe(RECORD, "Search srch_000042"))


def _cursor_line(app: Any) -> str:
    screen = app.screen
    assert isinstance(screen, Describe)
    return screen.lines[screen.cursor].text.strip()


async def test_every_field_is_shown_as_json_with_its_title() -> None:
    app = Harness()
    async with app.run_test(size=(80, 30)) as pilot:
        await wait_until(pilot, lambda: '"searchId": "srch_000042",' in screen_text(app))
        text = screen_text(app)
        assert "Search srch_000042" in text
        assert '"region": "Île-de-France"' in text  # a field the spec does not fix
        assert '"results": 1333,' in text
        assert "the whole record" in text  # where the cursor is


async def test_moving_and_copying_a_field_or_the_whole_record() -> None:
    app = Harness()
    async with app.run_test(size=(80, 30), notifications=True) as pilot:
        await wait_until(pilot, lambda: "searchId" in screen_text(app))
        await pilot.press("j")
        await pilot.press("y")
        assert app.clipboard == "srch_000042"
        await wait_until(pilot, lambda: "Copied searchId" in toasts_text(app))
        await pilot.press("G", "k", "k")
        await wait_until(pilot, lambda: "undocumented.region" in screen_text(app))
        await pilot.press("y")
        assert app.clipboard == "Île-de-France"
        await pilot.press("g", "j", "j", "j")
        await pilot.press("y")
        assert json.loads(app.clipboard) == {"results": 1333, "unlocked": 300}
        await pilot.press("Y")
        assert json.loads(app.clipboard) == RECORD


async def test_search_moves_between_matches_and_esc_ends_the_search_first() -> None:
    app = Harness()
    async with app.run_test(size=(80, 30)) as pilot:
        await wait_until(pilot, lambda: "searchId" in screen_text(app))
        await pilot.press("slash", *"name")
        await wait_until(pilot, lambda: "match 1 of 2 for 'name'" in screen_text(app))
        assert _cursor_line(app) == '"name": "Plumber"'
        await pilot.press("enter", "n")
        await wait_until(pilot, lambda: "match 2 of 2" in screen_text(app))
        assert "activities[1].name" in screen_text(app)
        await pilot.press("n")
        assert _cursor_line(app) == '"name": "Plumber"'
        await pilot.press("N")
        assert _cursor_line(app) == '"name": "Electrician"'
        await pilot.press("slash", *"zzz")
        await wait_until(pilot, lambda: "no match for 'zzz'" in screen_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: "no match" not in screen_text(app))
        assert isinstance(app.screen, Describe)
        await pilot.press("q")
        await wait_until(pilot, lambda: not isinstance(app.screen, Describe))
