"""The pending-spends dialog: each spend's account shown, only this account's spends offered,
every refusal under its own title, and a row this version cannot read never stops the app."""

from __future__ import annotations

import sqlite3
from typing import Any

from leadtui.spend.account import SpendAccount
from leadtui.spend.claims import new_claim_owner
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.pending_spends import PendingSpends
from tests.ui.conftest import SANDBOX_URL
from tests.ui.pilot import settle
from tests.ui.screen import notices, screen_text, wait_until, widget_text

DEMO = SpendAccount("…full", "acct_demo", "Demo Co")
LOW = SpendAccount("••••••••", "acct_low", "Lowball Ltd")


def left_pending(key: str, search_id: str, account: SpendAccount) -> None:
    """An unlock an earlier run journaled and never settled."""
    SpendJournal().record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": search_id, "additional_results": 3},
        body={"additional_results": 3},
        amount=3,
        profile="default",
        origin=SANDBOX_URL,
        account=account,
    )


def toasts(app: Any) -> list[tuple[str, str]]:
    return notices(app)


async def test_each_spend_shows_its_account_and_only_this_accounts_are_offered(
    build_app: Any,
) -> None:
    left_pending("ik-demo", "srch_demo", DEMO)
    left_pending("ik-low", "srch_low", LOW)
    app = build_app("sk_demo_full")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: "srch_demo" in screen_text(app))
        assert isinstance(app.screen, PendingSpends)
        text = screen_text(app)
        assert "Unlock 3 results of srch_demo · 3 credits · Demo Co (acct_demo)" in text
        assert "srch_low" not in text


async def test_another_accounts_key_is_offered_none_of_its_spends(build_app: Any) -> None:
    left_pending("ik-demo", "srch_demo", DEMO)
    app = build_app("sk_demo_low")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert not isinstance(app.screen, PendingSpends)
    assert [i.idempotency_key for i in SpendJournal().pending()] == ["ik-demo"]


async def test_a_spend_settled_or_claimed_elsewhere_says_so_under_its_own_title(
    build_app: Any,
) -> None:
    left_pending("ik-gone", "srch_1", DEMO)
    left_pending("ik-busy", "srch_2", DEMO)
    app = build_app("sk_demo_full")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: "srch_2" in screen_text(app))
        # Another window: discards the first, is sending the second.
        other = SpendJournal()
        other.discard("ik-gone")
        other.claim("ik-busy", new_claim_owner())

        await pilot.press("r")
        await settle(pilot)
        # Said in the dialog, which stays up for the other spend.
        assert widget_text(app, "#pending-spends-answer") == (
            "Spend already settled Intent ik-gone is already discarded; it is not sent again."
        )
        assert "srch_1" not in screen_text(app)  # settled: it left the list

        await pilot.press("d")
        await settle(pilot)
        answer = widget_text(app, "#pending-spends-answer")
        assert answer.startswith(
            "Spend being sent elsewhere Intent ik-busy is being sent by another window or process"
        )
        assert isinstance(app.screen, PendingSpends)
        assert "srch_2" in screen_text(app)
    [busy] = SpendJournal().pending()
    assert busy.idempotency_key == "ik-busy"


async def test_a_row_this_version_cannot_read_does_not_stop_the_app(build_app: Any) -> None:
    left_pending("ik-newer", "srch_new", DEMO)
    left_pending("ik-good", "srch_good", DEMO)
    with sqlite3.connect(SpendJournal().path) as db:
        db.execute(
            "UPDATE spend_intents SET operation = 'subscription.renew'"
            " WHERE idempotency_key = 'ik-newer'"
        )
    db.close()
    app = build_app("sk_demo_full")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: "srch_good" in screen_text(app))
        assert isinstance(app.screen, PendingSpends)
        assert "srch_new" not in screen_text(app)
        await settle(pilot)
        assert (
            "Spend journal",
            "The spend journal holds 1 spend(s) this version cannot read, left untouched and "
            "never sent: ik-newer (unknown operation 'subscription.renew' (a newer version?)).",
        ) in toasts(app)
