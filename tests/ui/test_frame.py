"""The frame: screens by key and palette, header badge, help, theme, keymap, scope gates."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.ui.commands import LeadCommands
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.help import HelpScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.screens.search_builder import NewSearchScreen
from leadtui.ui.screens.searches import SearchesScreen
from leadtui.ui.widgets.header import AppHeader
from tests.ui.screen import screen_text


def _text(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_credits_badge_shows_balance_after_first_paint(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "◆ 10,000 credits" in _text(app, "AppHeader #credits")
        assert "Demo Co" in _text(app, "AppHeader #brand")
        app.credits = 7  # what a screen does after a spend
        await pilot.pause()
        assert "◆ 7 credits (low)" in _text(app, "AppHeader #credits")


async def test_single_keys_switch_screens_and_header_marks_current(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        for key, screen_type in (
            ("s", SearchesScreen),
            ("n", NewSearchScreen),
            ("j", JobsScreen),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
            header = app.screen.query_one(AppHeader)
            assert header.query_one("#credits", Static).render()  # badge on every screen
        await pilot.press("a")
        await pilot.pause()
        assert app.current_mode == "account"


async def test_palette_lists_group_action_entries(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        titles = [c.title for c in app.palette_commands(app.screen)]
        for expected in (
            "screens: Account",
            "screens: Searches",
            "screens: New search",
            "screens: Jobs",
            "account: refresh",
            "app: toggle theme",
            "account: sign out",
        ):
            assert expected in titles
        assert LeadCommands in app.COMMANDS
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"screens: jobs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, JobsScreen)


async def test_help_lists_current_screen_keys(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = screen_text(app)
        assert "Keys — Account" in keys
        assert "Refresh" in keys
        assert "Quit" in keys
        assert "Searches" in keys
        await pilot.press("escape")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_ctrl_q_quits_cleanly(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_theme_toggle_is_remembered(build_app: Any) -> None:
    saved: list[str] = []
    app = build_app(save_settings=lambda settings: saved.append(settings.theme))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+t")
        await app.workers.wait_for_complete()
        assert app.theme == "textual-light"
    assert saved[-1] == "light"


async def test_light_theme_from_settings_and_keymap_remap(build_app: Any) -> None:
    from leadtui.config.settings import Settings

    settings = Settings(theme="light", keymap={"screens.jobs": "J"})
    app = build_app(settings=settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        assert app.theme == "textual-light"
        assert "J Jobs" in _text(app, "AppHeader #tabs")
        await pilot.press("J")
        await pilot.pause()
        assert isinstance(app.screen, JobsScreen)


async def test_screen_needing_a_missing_scope_says_so(build_app: Any) -> None:
    app = build_app("sk_demo_readonly")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("n")
        await pilot.pause()
        panel = app.screen.query_one("#error-panel")
        assert panel.has_class("-visible")
        assert panel.border_title == "Your key lacks searches:write"


class _UnlockProbe(LeadScreen):
    """A screen with one scope-gated key, as issue 5's Searches screen will have."""

    MODE = "probe"
    LABEL = "Probe"
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "unlock": (Scope.EXPORTS_WRITE, "unlock results")
    }
    BINDINGS: ClassVar[list[BindingType]] = [Binding("u", "unlock", "Unlock", id="probe.unlock")]

    def action_unlock(self) -> None:
        self.notify("unlocked")


async def test_key_forbidden_by_scopes_is_greyed_and_explains(build_app: Any) -> None:
    app = build_app("sk_demo_readonly")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await app.push_screen(_UnlockProbe())
        await pilot.pause()
        assert app.screen.active_bindings["u"].enabled is False  # greyed in the footer
        await pilot.press("u")
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("Without exports:write this key cannot unlock results" in m for m in messages)
        assert "unlocked" not in messages


async def test_no_color_renders_monochrome_with_meaning_in_words(
    build_app: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app("sk_demo_readonly")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.no_color
        text = screen_text(app)
        assert "✗  exports:write" in text  # missing scopes marked by a sign, not a colour
        assert "✓  usage:read" in text


async def test_help_puts_the_screens_own_keys_before_generic_ones(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("question_mark")
        await pilot.pause()
        keys = screen_text(app)
        assert keys.index("This screen") < keys.index("Refresh") < keys.index("Go to")
        assert keys.index("Go to") < keys.index("Everywhere") < keys.index("Quit")
        # Scrolling keys every widget has are not listed: they would bury the screen's own.
        assert "Scroll Up" not in keys
        assert "Focus Next" not in keys
