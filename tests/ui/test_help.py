"""Help (`?`) lists each key under the section a user looks for it in."""

from __future__ import annotations

from typing import Any

from leadtui.ui.screens.help import SECTIONS, HelpScreen
from leadtui.ui.screens.search_builder import NewSearchScreen
from tests.ui.pilot import settle, wait_for_screen
from tests.ui.screen import screen_text


def _sections(text: str) -> dict[str, list[str]]:
    """Help's rows ("ctrl+p Command palette", one space between words) by section: the
    lines inside its box, down to the tips under the table."""
    found: dict[str, list[str]] = {}
    rows: list[str] | None = None
    for line in text.splitlines():
        if line.count("│") < 2:
            continue
        words = " ".join(line[line.index("│") + 1 : line.rindex("│")].split())
        if words in SECTIONS:
            rows = found.setdefault(words, [])
        elif words.startswith("ctrl+p opens the command palette"):
            break
        elif rows is not None and words:
            rows.append(words)
    return found


async def _help(pilot: Any) -> dict[str, list[str]]:
    await pilot.press("question_mark")
    await wait_for_screen(pilot, HelpScreen)
    await settle(pilot)
    return _sections(screen_text(pilot.app))


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
