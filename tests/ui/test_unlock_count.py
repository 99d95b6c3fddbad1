"""How many results to unlock: never more than the balance pays for or than is still locked."""

from __future__ import annotations

from typing import Any

from leadtui.config.settings import Settings, SpendPolicy
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal, default_journal_path
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.pilot import settle
from tests.ui.screen import screen_text, wait_until
from tests.ui.search_walk import ONE_EACH, open_first_search, unlock_dialog


async def test_five_credits_default_and_cap_the_count_at_five(
    build_app: Any, make_client: Any
) -> None:
    await make_client("sk_demo_low").searches.create(ONE_EACH)
    app = build_app("sk_demo_low")
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        await unlock_dialog(app, pilot)
        text = screen_text(app)
        assert "Unlock 1 to 5 now (your 5 credits pay for 5)" in text
        assert "✓ costs 5 credits" in text
        assert "100" not in app.screen.query_one("#unlock-count-input").value
        await pilot.press("0")  # typing adds to the suggestion: 50
        await pilot.pause()
        assert "✗ additional_results: at most 5 (your 5 credits pay for 5)" in screen_text(app)
        await pilot.press("enter")  # refused: nothing the balance cannot cover is offered
        await pilot.pause()
        assert isinstance(app.screen, UnlockCount)
        await pilot.press("backspace", "backspace", "1")
        await pilot.pause()
        assert "✓ costs 1 credit —" in screen_text(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        text = screen_text(app)
        assert "Spend 1 credit (y)" in text
        assert "5 → 4 after" in text
        assert "short" not in text


async def test_the_preview_costs_what_the_confirmation_does_at_the_observed_price(
    build_app: Any, make_client: Any, sandbox_http: Any
) -> None:
    # The server states 1 credit a result and debits 3: an earlier unlock on this account
    # found it out, so 3 is the price that counts now (observed).
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 3})
    client = make_client()
    earlier = await client.searches.create(ONE_EACH)
    policy = SpendPolicy(spend_budget=0, read_only=False)
    gate = SpendGate(SpendJournal(default_journal_path()), profile="default", policy=policy)
    request = SpendRequest.for_unlock(Quote.unlock(earlier, 2, None), earlier.searchId)
    await gate.spend(request, client, Authorization(Surface.CLI, confirmed=True))
    await client.searches.create(ONE_EACH)  # the newest, opened below: nothing unlocked
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        await unlock_dialog(app, pilot)
        await wait_until(pilot, lambda: "✓ costs" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert "3 credits each (observed:" in text
        assert "✓ costs 300 credits — confirmed on the next screen" in text
        await pilot.press("backspace", "backspace")  # 1
        await wait_until(pilot, lambda: "✓ costs 3 credits —" in screen_text(app))
        await pilot.press("2")  # 12
        await wait_until(pilot, lambda: "✓ costs 36 credits —" in screen_text(app))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        assert "Spend 36 credits (y)" in screen_text(app)


async def test_no_credits_no_dialog_and_says_why(
    build_app: Any, make_client: Any, sandbox_http: Any
) -> None:
    await make_client("sk_demo_low").searches.create(ONE_EACH)
    await sandbox_http.patch("/_sandbox/accounts/acct_low", json={"credits": 0})
    app = build_app("sk_demo_low")
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        await wait_until(pilot, lambda: app.credits == 0)
        await pilot.press("u")
        await wait_until(pilot, lambda: "Not enough credits" in screen_text(app))
        text = screen_text(app)
        assert "One result costs 1 credit; the account has 0 credits. Nothing was sent." in text
        assert isinstance(app.screen, SearchDetailScreen)


async def test_more_than_is_locked_says_all_that_is_still_locked(
    build_app: Any, client: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    locked = search.result_count
    assert locked is not None
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        await unlock_dialog(app, pilot)
        app.screen.query_one("#unlock-count-input").value = str(locked + 1)
        await pilot.pause()
        assert f"at most {locked:,} (all that is still locked)" in screen_text(app)


async def test_read_only_greys_the_unlock_key_before_any_dialog(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    await client.searches.create(ONE_EACH)
    app = build_app(settings=Settings(read_only=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        assert "Unlocking is off (read-only)" in screen_text(app)
        assert app.screen.active_bindings["u"].enabled is False  # drawn greyed in the footer
        await pilot.press("u")
        await wait_until(pilot, lambda: "Spending is switched off" in screen_text(app))
        assert isinstance(app.screen, SearchDetailScreen)  # no dialog opened


async def test_the_count_takes_digits_only_and_says_so(build_app: Any, make_client: Any) -> None:
    """`1.5` and `1e3` are never read as 15 or 13: the refused key is named, Enter is off
    until the user deletes, and what is confirmed is what was typed."""
    await make_client().searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        for typed, refused in (("1.5", "'.'"), ("1e3", "'e'")):
            await unlock_dialog(app, pilot)
            await pilot.press("ctrl+u", *typed)
            await wait_until(pilot, lambda: "digits only" in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert f"✗ additional_results: digits only: {refused} was not taken" in text
            assert "✓ costs" not in text
            await pilot.press("enter")  # off while the refusal stands
            await pilot.pause()
            assert isinstance(app.screen, UnlockCount)
            await pilot.press("backspace")  # the user fixes it: "1"
            await wait_until(pilot, lambda: "✓ costs 1 credit" in screen_text(app))
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await unlock_dialog(app, pilot)
        await pilot.press("ctrl+u", "1", "5", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        assert "Spend 15 credits (y)" in screen_text(app)


async def test_after_an_overcharge_the_header_shows_the_price_the_quote_uses(
    build_app: Any, sandbox_http: Any
) -> None:
    """The server states 1 credit a result and debits 2: once the app's own unlock is
    overcharged, the header says 2 (observed), the price `u` quotes, never "stated" 1."""
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 2})
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await app.client.searches.create(ONE_EACH)
        await open_first_search(app, pilot)
        assert "Price 1 credit/result (stated by the server)" in screen_text(app)
        await unlock_dialog(app, pilot)
        await pilot.press("ctrl+u", "5", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        await pilot.press("y")
        await wait_until(pilot, lambda: "Unlocked 5" in screen_text(app))
        await wait_until(pilot, lambda: "Price 2 credits/result (observed)" in screen_text(app))
        assert "stated by the server" not in screen_text(app)
        await unlock_dialog(app, pilot)
        await wait_until(pilot, lambda: "✓ costs" in screen_text(app))
        assert "2 credits each (observed:" in " ".join(screen_text(app).split())
