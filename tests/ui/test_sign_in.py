"""Sign-in: the key is checked with GET /me before anything is saved; keyring off the UI thread."""

from __future__ import annotations

from typing import Any

import keyring
from keyring.backends import fail

from leadtui.ui.screens.account import AccountScreen
from leadtui.ui.screens.sign_in import SignInScreen
from tests.ui.screen import screen_text


async def _sign_in(pilot: Any, key: str) -> None:
    await pilot.pause()
    await pilot.press(*key, "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_good_key_is_checked_then_saved_in_keyring(
    build_app: Any, isolated_machine: Any
) -> None:
    saved: list[Any] = []
    app = build_app(None, save_settings=saved.append)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SignInScreen)
        await _sign_in(pilot, "sk_demo_full")
        await app.workers.wait_for_complete()
        await pilot.pause()
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
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, AccountScreen)
        assert "this session only" in screen_text(app)
    assert not (tmp_path / "insecure-keys.json").exists()


async def test_bad_url_is_explained_before_any_request(build_app: Any) -> None:
    app = build_app(None, base_url="")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"http://example.com", "tab", *"sk_demo_full", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, SignInScreen)
        assert "must travel over TLS" in " ".join(screen_text(app).split())


async def test_escape_without_a_key_quits_not_signed_in(build_app: Any) -> None:
    app = build_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 1
