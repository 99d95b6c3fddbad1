"""New search's result_filter is strict JSON, as on the command line: what Python's reader
would send changed (NaN, Infinity, a number too large, a member given twice) is refused in the
form with the reason, and nothing reaches the server."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import TextArea

from leadtui.ui.screens.search_builder import NewSearchScreen
from tests.ui.jobs_seed import requests_log
from tests.ui.pilot import settle, wait_for_text
from tests.ui.screen import flat_text


async def _fill(pilot: Any, screen: NewSearchScreen) -> None:
    for section, name in (
        ("activities", "Plumber"),
        ("countries", "France"),
        ("localisations", "Paris"),
    ):
        screen.selected = section
        screen.query_one("#builder-outline").focus()
        await pilot.press("plus", *name, "escape")
        await pilot.pause()


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ('{"rating": NaN}', "NaN is not a JSON number"),
        ('{"rating": Infinity}', "Infinity is not a JSON number"),
        ('{"rating": 1e999}', "1e999 is too large for a number"),
        ('{"a": 1, "a": 2}', 'the member "a" is given twice'),
    ],
)
async def test_a_filter_that_is_not_strict_json_is_refused_and_nothing_is_sent(
    build_app: Any, sandbox_http: Any, written: str, reason: str
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, NewSearchScreen)
        await _fill(pilot, screen)
        await wait_for_text(pilot, "✓ valid")
        screen.selected = "result_filter"
        screen.query_one("#builder-outline").focus()
        await pilot.press("enter")
        area = screen.query_one("#builder-filter", TextArea)
        assert area.has_focus
        area.insert(written)
        text = await wait_for_text(pilot, f"not strict JSON ({reason}); nothing is sent")
        assert "✓ valid" not in text
        assert "ctrl+s is off until the form is valid" in text
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, NewSearchScreen)
        assert "not strict JSON" in flat_text(app)
    sent = [r for r in await requests_log(sandbox_http) if r["method"] == "POST"]
    assert sent == []
