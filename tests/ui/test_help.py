"""Help (`?`) lists each key under the section a user looks for it in."""

from __future__ import annotations

from typing import Any

from leadtui.ui.screens.help import SECTIONS, HelpScreen
from leadtui.ui.screens.search_builder import NewSearchScreen
from tests.ui.pilot import settle, wait_for_screen
from tests.ui.screen import screen_text


def help_sections(text: str) -> dict[str, list[str]]:
    """Help's rows ("ctrl+p Command palette", one space between words) by section: the
    lines inside its box, down to the tips under the table; at 100 columns and more, the
    left column's sections, then the right one's."""
    inner = [
        line[line.index("│") + 1 : line.rindex("│")]
        for line in text.splitlines()
        if line.count("│") >= 2
    ]
    tips = next(
        (n for n, part in enumerate(inner) if part.strip().startswith("ctrl+p opens the")),
        len(inner),
    )
    inner = inner[:tips]
    split = next(
        (at for part in inner if (at := part.find("Go to")) > 0 and _words(part[:at]) in SECTIONS),
        None,
    )
    columns = [[part[:split] for part in inner], [part[split:] for part in inner]]
    found: dict[str, list[str]] = {}
    for column in columns if split else [inner]:
        rows: list[str] | None = None
        for part in column:
            words = _words(part)
            if words in SECTIONS:
                rows = found.setdefault(words, [])
            elif rows is not None and words:
                rows.append(words)
    return found


def _words(part: str) -> str:
    """The words of a line's part; a border of the screen under the dialog is not a word."""
    return " ".join(part.replace("│", " ").split())


async def _help(pilot: Any) -> dict[str, list[str]]:
    await pilot.press("question_mark")
    await wait_for_screen(pilot, HelpScreen)
    await settle(pilot)
    return help_sections(screen_text(pilot.app))


async def test_the_command_palette_key_is_listed_everywhere(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        sections = await _help(pilot)
    assert "ctrl+p Command palette" in sections["Everywhere"]
    assert "ctrl+t Dark or light theme" in sections["Everywhere"]
    # Nothing on Account takes keys as text: no focused-field section at all.
    assert "In the focused field" not in sections
    assert not any("palette" in row for row in sections["This screen"])


async def test_a_focused_list_keeps_its_own_keys_and_shift_is_spelled_out(
    build_app: Any,
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 50)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await wait_for_screen(pilot, NewSearchScreen)
        await settle(pilot)
        sections = await _help(pilot)
    # The outline (a list) has the focus: its keys are the focused field's.
    assert sections["In the focused field"] == [
        "↑ Up",
        "↓ Down",
        "Home First",
        "End Last",
        "Enter Select",
    ]
    assert "ctrl+p Command palette" in sections["Everywhere"]
    # Named as everywhere in help: "shift+↑", never the footer's "⇧↑".
    this_screen = sections["This screen"]
    assert "shift+↑ Move up (not available now)" in this_screen
    assert "shift+↓ Move down (not available now)" in this_screen
    assert "Esc Back to the outline" in this_screen
    assert not any("⇧" in row for rows in sections.values() for row in rows)


async def test_help_scrolls_with_the_vim_keys_and_says_more_is_below(build_app: Any) -> None:
    """At 100×30 "Go to" and "Everywhere" are in view beside the screen's own keys; the
    border says when more is below or above; j/k/g/G scroll as ↓/↑/Home/End do."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("question_mark")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        await settle(pilot)
        sections = help_sections(screen_text(app))
        assert "1 Account" in sections["Go to"]
        assert "ctrl+p Command palette" in sections["Everywhere"]  # its last row, in view
        assert "↓ more below (j/k, g/G) · esc closes" in screen_text(app)
        box = help_screen.box
        await pilot.press("j", "j")
        await settle(pilot)
        assert box.scroll_y == 2
        assert "↑ more above · ↓ more below" in screen_text(app)
        await pilot.press("k")
        await settle(pilot)
        assert box.scroll_y == 1
        await pilot.press("G")
        await settle(pilot)
        assert box.scroll_y == box.max_scroll_y > 0
        text = screen_text(app)
        assert "↑ more above · esc closes" in text
        assert "more below" not in text
        await pilot.press("g")
        await settle(pilot)
        assert box.scroll_y == 0
        await pilot.resize_terminal(80, 24)  # one column: the same keys scroll it
        await settle(pilot)
        await pilot.press("G")
        await settle(pilot)
        text = screen_text(app)
        assert "Command palette" in text  # the last section's last key, reached
        assert "more below" not in text
