"""The search builder: bounds checked as you type, paste fills lists, create opens the search."""

from __future__ import annotations

from typing import Any

from textual import events

from leadtui.ui.model.search_draft import server_field_errors
from leadtui.ui.screens.search_builder import NewSearchScreen
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.screen import notices, screen_text, wait_until, widget_text


async def _open(app: Any, pilot: Any) -> NewSearchScreen:
    await app.workers.wait_for_complete()
    await pilot.press("3")
    await pilot.pause()
    assert isinstance(app.screen, NewSearchScreen)
    return app.screen


async def _add(pilot: Any, screen: NewSearchScreen, section: str, name: str) -> None:
    screen.selected = section
    screen._draw()
    screen.query_one("#builder-outline").focus()
    await pilot.press("plus")
    await pilot.press(*name)
    await pilot.press("escape")
    await pilot.pause()


async def _fill_valid(pilot: Any, screen: NewSearchScreen) -> None:
    for section, name in (
        ("activities", "Plumber"),
        ("countries", "France"),
        ("localisations", "Paris"),
    ):
        await _add(pilot, screen, section, name)


async def test_reasons_next_to_fields_and_create_disabled(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(app, pilot)
        assert "activities: add at least 1 item" in screen_text(app)
        assert screen.check_action("create", ()) is None  # greyed out while invalid
        await _add(pilot, screen, "activities", "Plumber")
        name = screen.query_one("#field-name")
        name.focus()
        name.value = "x" * 160
        await pilot.press("end", "y")
        await pilot.pause()
        assert "name: 161/160 characters" in screen_text(app)
        await pilot.press("backspace")
        await pilot.pause()
        assert "name  160/160 characters" in screen_text(app)
        ids = screen.query_one("#field-localisationIdentifiers")
        ids.focus()
        ids.post_message(events.Paste("\n".join(f"id{i}" for i in range(201))))
        await pilot.pause()
        assert "localisationIdentifiers: 201/200" in screen_text(app)
        ids.value = ", ".join(f"id{i}" for i in range(12))
        await pilot.pause()
        assert "localisationIdentifiers  12/200" in screen_text(app)


async def test_valid_form_creates_counts_and_opens_the_search(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(app, pilot)
        await _fill_valid(pilot, screen)
        assert "✓ valid" in screen_text(app)
        # The form survives leaving the screen and coming back.
        screen.query_one("#builder-outline").focus()
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert app.screen is screen
        assert "3. " not in screen_text(app)
        assert "Paris" in screen_text(app)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await app.workers.wait_for_complete()
        await pilot.pause()
        search = app.screen.search
        assert search.result_count is not None
        assert search.result_count > 0
        assert f"Results {search.result_count:,}  Unlocked 0" in screen_text(app)


async def test_server_400_is_shown_against_the_field_it_names(
    build_app: Any, sandbox_http: Any
) -> None:
    # The client refuses this before sending, so ask the sandbox directly for its real 400.
    body = {
        "activities": [{"name": "x" * 161}],
        "countries": [{"name": "France"}],
        "localisations": [{"name": "Paris"}],
    }
    answer = await sandbox_http.post(
        "/api/v1/searches", json=body, headers={"Authorization": "Bearer sk_demo_full"}
    )
    assert answer.status_code == 400
    placed = server_field_errors(answer.json()["error"]["message"])
    assert set(placed) == {"activities.0.name"}
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(app, pilot)
        await _add(pilot, screen, "activities", "Plumber")
        screen.server_reasons = placed
        screen.selected = "activities.0"
        screen._draw()
        await pilot.pause()
        assert "✗ server: String should have at most 160 characters" in screen_text(app)
        screen.query_one("#field-name").focus()
        await pilot.press("s")  # editing the field clears what the server said about it
        await pilot.pause()
        assert "server:" not in screen_text(app)


async def test_enter_on_an_item_edits_its_name_and_typing_appends(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(app, pilot)
        await _add(pilot, screen, "activities", "Plumber")
        assert "1. Plumber" in screen_text(app)
        await pilot.press("enter")  # on the item in the outline: edit it
        await pilot.press("s")
        await pilot.pause()
        assert "1. Plumbers" in screen_text(app)  # added to, not replaced


async def test_a_long_reason_wraps_and_is_never_cut(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot)
        await _fill_valid(pilot, screen)
        screen.selected = "result_filter"
        screen._draw()
        await pilot.press("enter")
        await pilot.press("{", "x")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        start = max(i for i, line in enumerate(lines) if line.startswith(" ✗ result_filter"))
        said = " ".join(" ".join(lines[start:-1]).split())  # the status, above the footer
        assert said == (
            "✗ result_filter: not JSON (line 1: Expecting property name enclosed in double "
            "quotes) ctrl+s is off until the form is valid"
        )


async def test_adding_past_100_items_says_why_and_long_names_take_one_line(
    build_app: Any,
) -> None:
    from leadtui.ui.model.search_draft import ItemDraft

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(app, pilot)
        screen.draft.countries.append(ItemDraft(name="x" * 161))
        screen.selected = "countries.0"
        screen._draw()
        await pilot.pause()
        outline = [line for line in screen_text(app).splitlines() if "1. xxx" in line]
        assert len(outline) == 1
        assert outline[0].split("▎")[0].rstrip().endswith("…")
        screen.draft.activities.extend(ItemDraft(name=f"act{i}") for i in range(100))
        screen.selected = "activities"
        screen._draw()
        screen.query_one("#builder-outline").focus()
        await pilot.press("plus")
        await pilot.pause()
        messages = [words for _, words in notices(app)]
        assert any("activities: 100/100 items, the most a search takes" in m for m in messages)
        assert len(screen.draft.activities) == 100


async def test_a_paste_of_several_lines_into_a_name_is_refused_and_says_why(
    build_app: Any,
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await _open(app, pilot)
        await _add(pilot, screen, "activities", "Plumber")
        name = screen.query_one("#field-name")
        name.focus()
        name.post_message(events.Paste("Electrician\nCarpenter\nRoofer"))
        await wait_until(pilot, lambda: "Paste refused" in screen_text(app))
        toast = " ".join(widget_text(app, "Toast").replace("▌", " ").split())
        assert "name is one line, and the clipboard holds 3 lines" in toast
        assert name.value == "Plumber"  # nothing cut to its first line
        name.post_message(events.Paste("Electrician\n"))  # one line and its newline: taken
        await wait_until(pilot, lambda: name.value == "PlumberElectrician")


def _toasts(app: Any) -> str:
    return " ".join(widget_text(app, "Toast").replace("▌", " ").split())


async def test_a_paste_on_the_outline_goes_to_the_selected_name_never_dropped(
    build_app: Any,
) -> None:
    """Esc back to the outline, then a paste: it lands in the selected item's name (several
    lines refused, saying why; one line taken), and on a section it says where to paste."""
    app = build_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await _open(app, pilot)
        await _add(pilot, screen, "activities", "Plumber")  # ends back on the outline
        outline = screen.query_one("#builder-outline")
        assert outline.has_focus
        await pilot.press("escape")
        outline.post_message(events.Paste("Electrician\nCarpenter\nRoofer"))
        await wait_until(pilot, lambda: "Paste refused" in screen_text(app))
        toast = " ".join(widget_text(app, "Toast").replace("▌", " ").split())
        assert "name is one line, and the clipboard holds 3 lines" in toast
        name = screen.query_one("#field-name")
        assert name.has_focus  # where the paste was meant to go
        name.post_message(events.Paste("s"))
        await wait_until(pilot, lambda: "1. Plumbers" in screen_text(app))
        screen.selected = "countries"
        screen._draw()
        outline.focus()
        outline.post_message(events.Paste("France\nSpain"))
        await wait_until(pilot, lambda: "Not pasted: countries is a list" in _toasts(app))
        assert screen.draft.countries == []
