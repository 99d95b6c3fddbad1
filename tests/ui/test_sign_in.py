"""Sign-in: the key is checked with GET /me before anything is saved; keyring off the UI thread."""

from __future__ import annotations

from typing import Any

import keyring
import pytest
import textual.constants
from keyring.backends import fail

from leadtui.ui.screens.account import AccountScreen
from leadtui.ui.screens.sign_in import SignInScreen
from tests.ui.pilot import settle, wait_for_text
from tests.ui.screen import flat_text, screen_text


async def _sign_in(pilot: Any, key: str) -> None:
    await pilot.pause()
    await pilot.press(*key, "enter")
    await settle(pilot)


async def test_good_key_is_checked_then_saved_in_keyring(
    build_app: Any, isolated_machine: Any
) -> None:
    saved: list[Any] = []
    app = build_app(None, save_settings=saved.append)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SignInScreen)
        await _sign_in(pilot, "sk_demo_full")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert "◆ 10,000 credits" in screen_text(app)
        assert "…full · keyring" in screen_text(app)
    assert isolated_machine.store == {("leadtui", "default"): "sk_demo_full"}
    # The profile remembers the server, never the key.
    assert saved[-1].profile("default").base_url == "http://127.0.0.1"
    assert "sk_demo_full" not in saved[-1].model_dump_json()


async def test_rejected_key_is_not_saved(build_app: Any, isolated_machine: Any) -> None:
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _sign_in(pilot, "sk_demo_revoked")
        assert isinstance(app.screen, SignInScreen)
        text = screen_text(app)
        assert "This key was rejected: it is missing, expired or revoked." in text
        assert "HTTP 401" in text
        assert "sk_demo_revoked" not in text  # the key field stays masked
    assert isolated_machine.store == {}


async def test_no_keyring_names_both_alternatives_and_allows_this_session(
    build_app: Any, isolated_machine: Any, tmp_path: Any
) -> None:
    keyring.set_keyring(fail.Keyring())
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _sign_in(pilot, "sk_demo_full")
        assert isinstance(app.screen, SignInScreen)
        text = " ".join(screen_text(app).split())
        assert "The key works, but was not saved." in text
        assert "LEADTUI_API_KEY" in text
        assert "--insecure-storage" in text
        await pilot.click("#session-only")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert "this session only" in screen_text(app)
    assert not (tmp_path / "insecure-keys.json").exists()


async def test_bad_url_is_explained_before_any_request(build_app: Any) -> None:
    app = build_app(None, base_url="")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"http://example.com", "tab", *"sk_demo_full", "enter")
        await settle(pilot)
        assert isinstance(app.screen, SignInScreen)
        assert "must travel over TLS" in " ".join(screen_text(app).split())


async def test_escape_without_a_key_quits_not_signed_in(build_app: Any) -> None:
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 1


async def test_the_form_says_https_or_http_to_this_machine(build_app: Any) -> None:
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_text(pilot, "Server URL: https://, or http:// to this machine")


async def test_a_key_with_a_typographic_quote_is_refused_naming_the_position(
    build_app: Any, isolated_machine: Any
) -> None:
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        # As pasted from a document that turned an apostrophe into a smart quote.
        app.screen.query_one("#api-key").value = "sk_demo\u2019full"
        await pilot.press("enter")
        await wait_for_text(pilot, "The API key cannot be used: character 8 is not printable ASCII")
        assert isinstance(app.screen, SignInScreen)
        assert app.is_running
    assert isolated_machine.store == {}


async def test_the_textual_log_never_holds_the_typed_key(
    build_app: Any, isolated_machine: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "textual.log"
    monkeypatch.setattr(textual.constants, "LOG_FILE", str(log))
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _sign_in(pilot, "sk_demo_full")
        assert isinstance(app.screen, AccountScreen)
        await wait_for_text(pilot, "◆ 10,000 credits")
        # What stays after sign-in: workers (and their reprs) and the form, if still mounted.
        leftovers = " ".join(repr(worker) for worker in app.workers)
        assert "sk_demo_full" not in leftovers
        assert "sk_demo_full" not in flat_text(app)
    written = log.read_text(encoding="utf-8")
    assert "Input.Changed" in written or "KeyInput.Changed" in written  # the log was on
    assert "sk_demo_full" not in written
