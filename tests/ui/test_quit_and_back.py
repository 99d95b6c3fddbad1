"""q goes back one level on a screen pushed over another, and asks before quitting a main one."""

from __future__ import annotations

from typing import Any

from tests.ui.pilot import wait_for_text
from tests.ui.screen import screen_text, wait_until


async def test_q_asks_before_quitting_a_main_screen_and_goes_back_elsewhere(
    build_app: Any,
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("H")
        await wait_until(pilot, lambda: len(app.screen_stack) == 2)
        await pilot.press("q")  # a pushed screen: back one level
        await wait_until(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.press("q")
        await wait_until(pilot, lambda: "Quit leadtui?" in screen_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Quit leadtui?" not in screen_text(app))
        assert app.is_running
        await pilot.press("q")
        await wait_until(pilot, lambda: "Quit leadtui?" in screen_text(app))
        await pilot.press("y")
    assert app.return_code == 0


def test_esc_and_a_digit_in_one_read_are_both_keys_outside_a_text_field() -> None:
    from textual import events

    from leadtui.ui.frame.key_bursts import split_meta_key

    # Textual reads Esc 3 arriving together as "£" (macOS option+3).
    read = events.Key("pound_sign", "£")
    assert [key.key for key in split_meta_key(read)] == ["escape", "3"]
    # In a text field "£" may be typed: it stays.
    assert [key.key for key in split_meta_key(read, in_text_field=True)] == ["pound_sign"]


async def test_ctrl_c_quits_as_ctrl_q_does(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+c")
    assert not app.is_running
    assert app.return_code == 0


async def test_quitting_the_demo_says_it_starts_afresh(build_app: Any) -> None:
    app = build_app("sk_demo_full", demo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("q")
        text = await wait_for_text(pilot, "Quit leadtui?")
        assert "the next leadtui --demo starts afresh" in text
        assert "here when you come back" not in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Quit leadtui?" not in screen_text(app))
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("q")
        text = await wait_for_text(pilot, "Quit leadtui?")
        assert "Jobs go on on the server; they are here when you come back." in text
