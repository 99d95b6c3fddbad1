"""The frame: screens by key and palette, header badge, help, theme, keymap, scope gates."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import httpx
import pytest
from textual import work
from textual._xterm_parser import XTermParser
from textual.binding import Binding, BindingType
from textual.command import CommandPalette

from leadtui.api.contract import Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import SearchRequest
from leadtui.spend.approval_wait import DeniedInApp
from leadtui.ui.screens.account import AccountScreen
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.help import HelpScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.screens.search_builder import NewSearchScreen
from leadtui.ui.screens.search_detail import SearchDetailScreen
from leadtui.ui.screens.searches import SearchesScreen
from leadtui.ui.screens.sign_in import SignInScreen
from leadtui.ui.widgets.error_panel import ErrorPanel
from leadtui.ui.widgets.header import AppHeader
from tests.ui.approval_asker import start_asking
from tests.ui.pilot import settle, wait_for_screen, wait_for_text
from tests.ui.screen import flat_text, footer_text, notices, screen_text
from tests.ui.search_walk import ONE_EACH, open_first_search
from tests.ui.test_help import help_sections


def _header(app: Any) -> str:
    return str(app.screen.query_one(AppHeader).render())


async def test_credits_badge_shows_balance_after_first_paint(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        header = _header(app)
        assert header.startswith(" Demo Co ")
        assert header.endswith(" ◆ 10,000 credits ")


async def test_low_balance_badge_says_low(build_app: Any) -> None:
    app = build_app("sk_demo_low")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_text(pilot, "◆ 5 credits (low)")


@pytest.mark.parametrize(
    ("size", "approvals", "credits"),
    [
        ((100, 30), "1 approval waiting", "◆ 30 credits (low)"),
        ((80, 24), "1 to approve", "◆ 30 credits (low)"),
    ],
)
async def test_the_header_keeps_approvals_and_credits_whole(
    build_app: Any,
    client: Any,
    sandbox_http: Any,
    size: tuple[int, int],
    approvals: str,
    credits: str,
) -> None:
    """With an approval waiting and a low balance, both badges stay whole (shorter words where
    the line is tight); the tabs keep their place."""
    await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"credits": 30})
    search = await client.searches.create(
        {
            "activities": [{"name": "Bakery"}],
            "countries": [{"name": "France"}],
            "localisations": [{"name": "Paris"}],
        }
    )
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await wait_for_text(pilot, credits)
        asker = start_asking(client, str(search.searchId), 5)
        await wait_for_text(pilot, approvals)
        top = screen_text(app).splitlines()[0]
        assert "1 Account  2 Searches  3 New search  4 Jobs" in top
        assert approvals in top
        assert top.endswith(credits)
        # A click on the badge opens Approvals.
        await pilot.click(AppHeader, offset=(top.index(approvals) + 1, 0))
        await wait_for_text(pilot, "Waiting for you.")
        await pilot.press("n")
        with pytest.raises(DeniedInApp):
            await asker


async def test_single_keys_switch_screens_and_header_marks_current(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for key, screen_type in (
            ("2", SearchesScreen),
            ("3", NewSearchScreen),
            ("4", JobsScreen),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
            assert "◆ 10,000 credits" in _header(app)  # badge on every screen
        await pilot.press("1")
        await pilot.pause()
        assert app.current_mode == "account"


async def test_a_click_on_a_tab_opens_its_screen(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        top = screen_text(app).splitlines()[0]
        await pilot.click(AppHeader, offset=(top.index("2 Searches") + 1, 0))
        await wait_for_screen(pilot, SearchesScreen)


async def test_palette_lists_group_action_entries(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
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
        await pilot.press("ctrl+p")
        await wait_for_screen(pilot, CommandPalette)
        await pilot.press(*"screens: jobs")
        await wait_for_text(pilot, "Open Jobs")  # the palette has searched
        await pilot.press("enter")
        await wait_for_screen(pilot, JobsScreen)


async def test_help_lists_current_screen_keys(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
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
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_theme_toggle_is_remembered(build_app: Any) -> None:
    saved: list[str] = []
    app = build_app(save_settings=lambda settings: saved.append(settings.theme))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert app.theme == "textual-light"
    assert saved[-1] == "light"


async def test_light_theme_from_settings_and_keymap_remap(build_app: Any) -> None:
    from leadtui.config.settings import Settings

    settings = Settings(theme="light", keymap={"screens.jobs": "J"})
    app = build_app(settings=settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-light"
        assert " J Jobs " in _header(app)
        await pilot.press("J")
        await pilot.pause()
        assert isinstance(app.screen, JobsScreen)


async def test_screen_needing_a_missing_scope_says_so(build_app: Any) -> None:
    app = build_app("sk_demo_readonly")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await pilot.pause()
        panel = app.screen.query_one("#error-panel")
        assert panel.has_class("-visible")
        assert panel.border_title == "Your key lacks searches:write"


class _UnlockProbe(LeadScreen):
    """A screen with one scope-gated key, as the Searches screen has."""

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
        await settle(pilot)
        await app.push_screen(_UnlockProbe())
        await pilot.pause()
        assert app.screen.active_bindings["u"].enabled is False  # greyed in the footer
        await pilot.press("u")
        await pilot.pause()
        messages = [words for _, words in notices(app)]
        assert any("Without exports:write this key cannot unlock results" in m for m in messages)
        assert "unlocked" not in messages


async def test_no_color_renders_monochrome_with_meaning_in_words(
    build_app: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app("sk_demo_readonly")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.no_color
        text = screen_text(app)
        assert "✗  exports:write" in text  # missing scopes marked by a sign, not a colour
        assert "✓  usage:read" in text


async def test_help_puts_the_screens_own_keys_before_generic_ones(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        keys = screen_text(app)
        sections = help_sections(keys)  # at 100 columns: Go to and Everywhere on the right
        assert list(sections)[:3] == ["This screen", "In the table", "Go to"]
        assert list(sections)[3] == "Everywhere"
        assert sections["This screen"][-1].endswith("Refresh")
        assert "ctrl+q Quit" in sections["Everywhere"]
        # Scrolling keys every widget has are not listed: they would bury the screen's own.
        assert "Scroll Up" not in keys
        assert "Focus Next" not in keys


class _LookupProbe(LeadScreen):
    """A screen whose `g` looks a search up and whose `h` does some other work: what the
    error panel reports, and what clears it, whatever screen it is on."""

    MODE = "probe"
    LABEL = "Probe"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "lookup", "Look up", id="probe.lookup"),
        Binding("h", "other", "Other", id="probe.other"),
    ]
    search_id = "srch_missing"

    def action_lookup(self) -> None:
        self.lookup()

    def action_other(self) -> None:
        self.other()

    @work(group="probe-lookup")
    async def lookup(self) -> None:
        try:
            search = await self.client.searches.get(self.search_id)
        except LeadError as error:
            self.show_error(error)
            return
        self.notify(f"found {search.searchId}")

    @work(group="probe-other")
    async def other(self) -> None:
        await self.client.me()


async def test_an_error_panel_clears_on_the_next_success_of_what_it_reported(
    build_app: Any,
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        probe = _LookupProbe()
        await app.push_screen(probe)
        await pilot.press("g")
        await wait_for_text(pilot, "Not found")
        # Some other work succeeding says nothing about the failed lookup: the panel stays.
        await pilot.press("h")
        await settle(pilot)
        assert "Not found" in flat_text(app)
        # The lookup itself succeeding ends it.
        search = await app.client.searches.create(
            SearchRequest.model_validate(
                {
                    "activities": [{"name": "Bakeries"}],
                    "countries": [{"name": "France"}],
                    "localisations": [{"name": "Lyon"}],
                }
            )
        )
        probe.search_id = search.searchId
        await pilot.press("g")
        await settle(pilot)
        text = flat_text(app)
        assert "Not found" not in text
        assert "It does not exist" not in text


async def test_account_refreshes_after_a_spend(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        text = await wait_for_text(pilot, "0 credits used")
        search = await app.client.searches.create(
            SearchRequest.model_validate(
                {
                    "activities": [{"name": "Bakeries"}],
                    "countries": [{"name": "France"}],
                    "localisations": [{"name": "Lyon"}],
                }
            )
        )
        await app.client.exports.create(search.searchId, 5)
        # What the spend flow does once the server answered: the badge follows, and so does
        # everything the Account shows (the usage was read before the spend).
        await app.refresh_identity()
        text = await wait_for_text(pilot, "5 credits used")
        assert "9,995" in text
        await app.client.exports.create(search.searchId, 2)
        app.note_spend()  # the explicit signal, for spends that leave the balance unread
        await wait_for_text(pilot, "7 credits used")


async def test_a_load_answered_as_the_app_quits_ends_quietly(build_app: Any) -> None:
    """An answer that arrives while the app is taken down (its widgets already removed) has
    no panel left to clear or fill: the load ends without a word, not with a crash."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "0 credits used")
        screen = app.screen
        await screen.remove_children()  # as quitting removes them first
        screen.clear_error()
        screen.show_error(LeadError("The server is unavailable."))
        assert not screen.query(ErrorPanel)
        assert app.is_running


@pytest.mark.parametrize("where", ["Searches", "a search"])
async def test_a_reload_answered_as_the_app_quits_ends_quietly(
    build_app: Any, client: Any, where: str
) -> None:
    """A screen's reload answered after its widgets are removed (the app quitting) ends
    without drawing, not with a crash (any screen's worker: LeadScreen.run_worker)."""
    await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        if where == "Searches":
            await pilot.press("2")
            screen = await wait_for_screen(pilot, SearchesScreen)
            await wait_for_text(pilot, "all loaded")
            reload = screen.refresh_in_place
        else:
            await open_first_search(app, pilot)
            screen = app.screen
            assert isinstance(screen, SearchDetailScreen)
            reload = screen.refresh_search
        await screen.remove_children()  # as quitting removes them first
        await reload().wait()
        assert app.is_running


class _HeldMe(httpx.AsyncBaseTransport):
    """Holds every GET /me until `release` is set: a slow server, without sleeping."""

    def __init__(self, sandbox_app: Any) -> None:
        self.inner = httpx.ASGITransport(app=sandbox_app)
        self.release = asyncio.Event()
        self.release.set()
        self.me_requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/me"):
            self.me_requests += 1
            await self.release.wait()
        return await self.inner.handle_async_request(request)


async def test_account_r_shows_the_refresh_at_once_and_is_off_until_it_ends(
    build_app: Any, sandbox_app: Any
) -> None:
    held = _HeldMe(sandbox_app)
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "◆ 10,000 credits")
        await settle(pilot)
        held.release.clear()
        await pilot.press("r")
        text = await wait_for_text(pilot, "⟳ Refreshing the account…")
        assert "refreshing… (r)" in text
        sent = held.me_requests
        # Pressed again while the first is in flight: greyed, so nothing is sent twice.
        await pilot.press("r", "r")
        await pilot.pause()
        assert held.me_requests == sent
        assert app.screen.active_bindings["r"].enabled is False
        held.release.set()
        await settle(pilot)
        text = flat_text(app)
        assert "Refreshing the account" not in text
        assert "just now (r)" in text
        assert app.screen.active_bindings["r"].enabled is True


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_footers_show_whole_keys_only(build_app: Any, size: tuple[int, int]) -> None:
    app = build_app()
    async with app.run_test(size=size) as pilot:
        for key in ("a", "s", "n", "j"):
            await pilot.press(key)
            await settle(pilot)
            screen = app.screen
            whole = {
                f"{app.get_key_display(active.binding)} {active.binding.description}"
                for active in screen.active_bindings.values()
            } | {"^p palette"}
            footer = footer_text(app)
            shown = footer.split("  ")
            assert shown[-2:] == ["? Help", "^p palette"], footer
            assert all(part in whole for part in shown), f"{key}: {footer}"


async def test_at_60x20_the_main_screens_are_usable_and_below_it_says_so(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for_text(pilot, "Credits 10,000")
        text = await wait_for_text(pilot, "◆ 10,000 credits")  # the credits whole in the header
        assert "Terminal too small" not in text
        for key, shown in (("2", "Searches · "), ("3", "Activities 0/100"), ("4", "Exports")):
            await pilot.press(key)
            text = await wait_for_text(pilot, shown)
            assert "Terminal too small" not in text
            assert "◆ 10,000 credits" in text
        with app.screen.request("refresh", "Refreshing the jobs…"):  # a request in flight
            await wait_for_text(pilot, "⟳ Refreshing the jobs…")
            await pilot.resize_terminal(59, 20)
            text = await wait_for_text(pilot, "Terminal too small: need 60×20, have 59×20")
        assert "credits" not in text  # no cut badge, no half table
        assert "Refreshing" not in text  # nor the line of requests in flight
        await pilot.resize_terminal(80, 19)
        await wait_for_text(pilot, "Terminal too small: need 60×20, have 80×19")
        await pilot.resize_terminal(80, 24)
        text = await wait_for_text(pilot, "◆ 10,000 credits")
        assert "Terminal too small" not in text


async def test_a_launch_in_a_small_terminal_says_so_on_every_screen(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(50, 15)) as pilot:
        text = await wait_for_text(pilot, "Terminal too small: need 60×20, have 50×15")
        assert "credits" not in text
        await pilot.press("2")
        await wait_for_screen(pilot, SearchesScreen)
        text = await wait_for_text(pilot, "Terminal too small: need 60×20, have 50×15")
        assert "Searches" not in text


async def test_header_says_read_only_when_spending_is_off(build_app: Any) -> None:
    from leadtui.config.settings import Settings

    app = build_app(settings=Settings(read_only=True))
    async with app.run_test(size=(80, 24)) as pilot:
        text = await wait_for_text(pilot, "read-only ◆ 10,000 credits")
        assert "Demo Co" in text


def _burst(app: Any, typed: str) -> None:
    """Keys as a terminal sends them in one read (a paste, tmux send-keys): parsed by Textual's
    own parser and queued together, nothing handled in between."""
    parser = XTermParser()
    keys = [*parser.feed(typed), *parser.feed("")]  # the end of the read: no more bytes
    for key in keys:
        app.post_message(key)


async def test_a_burst_with_a_tab_lands_in_the_field_tab_moved_to(build_app: Any) -> None:
    app = build_app(None, base_url="")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, SignInScreen)
        _burst(app, "http://127.0.0.1\tsk_demo_full\r")
        await wait_for_text(pilot, "◆ 10,000 credits")
        assert isinstance(app.screen, AccountScreen)


async def test_a_burst_with_esc_then_a_letter_is_both_keys(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for_screen(pilot, HelpScreen)
        _burst(app, "\x1b2")  # Esc closes help, 2 opens Searches
        await wait_for_screen(pilot, SearchesScreen)
