"""Approvals: a spend asked by a process that cannot ask, approved or denied in the app."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from leadtui.spend.account import SpendAccount
from leadtui.spend.approval_wait import ApprovalMismatch, ApprovalTimedOut, DeniedInApp
from leadtui.spend.approvals import Answer, ApprovalDesk, ApprovalRequest, Party, Progress, Ruling
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.model.approval_review import Standing
from leadtui.ui.screens.approvals import ApprovalsScreen
from tests.conftest import FakeClock
from tests.support import spend_requests
from tests.ui.approval_asker import AGENT, desk, start_asking
from tests.ui.pilot import wait_for_screen, wait_for_text, wait_until

ONE_SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


async def _search(client: Any) -> str:
    created = await client.searches.create(ONE_SEARCH)
    return str(created.searchId)


async def _credits(sandbox_http: Any) -> int:
    r = await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={})
    return int(r.json()["data"]["credits"])


async def _unlocks(sandbox_http: Any) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


def _toasts(app: Any, title: str) -> list[str]:
    """The words of the toasts titled `title`, as History keeps every notification."""
    return [e.text for e in app.history.entries() if e.exchange is None and e.title == title]


def _requests() -> list[ApprovalRequest]:
    return desk().listed().requests


async def test_an_approved_request_is_sent_by_the_asker_once(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    app = build_app()
    escapes: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        app.jobs.notifier.write = escapes.append
        await wait_for_text(pilot, "10,000 credits")
        search_id = await _search(client)
        asker = start_asking(client, search_id, 40)

        await wait_for_text(pilot, "1 approval waiting")
        await wait_until(pilot, lambda: _toasts(app, "Approval waiting"))
        assert f"{AGENT} (pid" in _toasts(app, "Approval waiting")[0]
        assert "asks to unlock 40 results" in _toasts(app, "Approval waiting")[0]
        assert any("\x1b]9;leadtui: Approval waiting" in e for e in escapes)
        assert any("\x1b]777;notify;" in e for e in escapes)

        await pilot.press("A")
        await wait_for_screen(pilot, ApprovalsScreen)
        text = await wait_for_text(pilot, "Waiting for you.")
        assert AGENT in text
        assert "unlock 40 results" in text
        assert "10,000 credits → 9,960" in text
        assert await _unlocks(sandbox_http) == []  # nothing is sent by asking

        await pilot.press("y")
        dialog = await wait_for_screen(pilot, ConfirmSpend)
        shown = await wait_for_text(pilot, "10,000 → 9,960 after")
        # An approval, not a spend: who asks, and that the asker (not the app) sends it.
        assert "Approve: Unlock 40 results" in shown
        assert f"Asked by {AGENT} (pid" in shown
        assert "approve; this app sends nothing itself" in shown
        assert "Approve 40 credits (y)" in shown
        assert dialog.request.idempotency_key == _requests()[0].idempotency_key
        await pilot.press("y")
        result = await asker
        await wait_for_text(pilot, "sent by the asker")

        assert await _credits(sandbox_http) == 10_000 - 40
        unlocks = await _unlocks(sandbox_http)
        assert [u["idempotency_key"] for u in unlocks] == [result.intent.idempotency_key]
        await wait_for_text(pilot, "9,960 credits")  # the header follows the asker's spend
        notes = [e.what for e in app.history.entries()]
        assert any(n.startswith("Approved by you: ") and AGENT in n for n in notes)
        assert not any("Approved by you: Approved" in n for n in notes)
        assert any("Approval waiting" in n and AGENT in n for n in notes)


async def test_n_denies_and_nothing_is_sent(build_app: Any, client: Any, sandbox_http: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40)
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        await wait_for_text(pilot, "Waiting for you.")
        await pilot.press("n")

        with pytest.raises(DeniedInApp) as denied:
            await asker
        await wait_for_text(pilot, "denied")

    assert denied.value.quote.total == 40
    assert await _unlocks(sandbox_http) == []
    assert await _credits(sandbox_http) == 10_000


async def test_no_answer_times_out_and_nothing_is_sent(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    app = build_app()
    asker_clock = FakeClock(0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40, wait_seconds=30, clock=asker_clock)
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        await wait_for_text(pilot, "Waiting for you.")
        asker_clock.advance(31)
        with pytest.raises(ApprovalTimedOut):
            await asker
        await wait_for_text(pilot, "timed out")
        await pilot.press("y")  # nothing to approve: it says why
        await wait_until(pilot, lambda: _toasts(app, "Not approved here"))
        assert "timed out: there is nothing to approve" in _toasts(app, "Not approved here")[0]
        assert isinstance(app.screen, ApprovalsScreen)

    assert await _unlocks(sandbox_http) == []


async def test_a_balance_changed_since_the_quote_is_stale_and_asked_again(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        search_id = await _search(client)
        await pilot.press("A")
        await wait_for_screen(pilot, ApprovalsScreen)
        asker = start_asking(client, search_id, 40)
        await wait_until(pilot, lambda: len(_requests()) == 1)
        # Spent elsewhere after the asker quoted: its quote no longer holds.
        await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"credits": 5_000})

        await wait_until(pilot, lambda: len(_requests()) == 2)
        text = await wait_for_text(pilot, "5,000 credits → 4,960")
        assert "stale: the quote changed" in text
        await wait_until(pilot, lambda: app.approvals_waiting == 1)
        screen = app.screen
        assert isinstance(screen, ApprovalsScreen)
        await wait_until(pilot, lambda: screen.rows[0].approvable)  # newest first
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend)
        await pilot.press("y")
        await asker

    assert await _credits(sandbox_http) == 5_000 - 40


def _edit_row(request_id: str, sql: str, *args: object) -> None:
    """Change a request row directly, as someone with access to the journal file could."""
    with sqlite3.connect(SpendJournal().path) as db:
        db.execute(sql, (*args, request_id))


async def test_a_request_changed_under_its_asker_is_never_approved(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40)
        await wait_until(pilot, lambda: len(_requests()) == 1)
        row = _requests()[0]
        doc = row.to_json()
        doc["params"]["additional_results"] = 400
        doc["quote"]["units"] = 400
        _edit_row(row.id, "UPDATE approval_requests SET request = ? WHERE id = ?", json.dumps(doc))

        await pilot.press("A")
        await wait_for_text(pilot, "refused: the request does not match its spend")
        await pilot.press("y")
        await wait_until(pilot, lambda: _toasts(app, "Not approved here"))
        assert isinstance(app.screen, ApprovalsScreen)
        await pilot.press("n")
        with pytest.raises(DeniedInApp):
            await asker

    assert await _unlocks(sandbox_http) == []


async def test_a_request_retargeted_in_the_journal_is_refused_by_its_asker_and_shown_so(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    """The row names another search, and a request hash made for it: the app shows and
    approves that search, and the asker, which holds its own, refuses the yes."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asked, other = await _search(client), await _search(client)
        asker = start_asking(client, asked, 40)
        await wait_until(pilot, lambda: len(_requests()) == 1)
        row = _requests()[0]
        doc = row.to_json()
        doc["params"]["search_id"] = other
        doc["quote"]["target"] = other
        retargeted = spend_requests.unlock(other, 40)
        _edit_row(
            row.id,
            "UPDATE approval_requests SET request = ?, request_hash = ? WHERE id = ?",
            json.dumps(doc),
            retargeted.request_hash,
        )

        await pilot.press("A")
        await wait_for_text(pilot, f"unlock 40 results of {other}")
        await wait_for_text(pilot, "Waiting for you.")
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend)
        await pilot.press("y")
        with pytest.raises(ApprovalMismatch):
            await asker
        await wait_for_text(pilot, "refused: the approval did not match the asker's spend")

    assert await _unlocks(sandbox_http) == []
    assert await _credits(sandbox_http) == 10_000


DAY = 24 * 3600.0


def _old_request(verdict: Ruling, touched: float) -> str:
    """A request answered with `verdict`, last changed at `touched`."""
    journal = SpendJournal(clock=lambda: touched)
    old = ApprovalDesk(journal)
    request = spend_requests.unlock("srch_1", 40, price_per_result=1, balance=10_000)
    asker = Party.here("cli", "command line")
    account = SpendAccount("…full", "acct_demo", "Demo Co")
    record = old.ask(
        request,
        asker=asker,
        wait_seconds=120,
        profile="default",
        origin="http://127.0.0.1",
        account=account,
    )
    answer = Answer(verdict, asker, request.idempotency_key, request.request_hash, 40, account)
    old.answer(record.id, answer)
    return record.id


def _ids() -> set[str]:
    return {r.id for r in _requests()}


async def test_the_app_prunes_old_answered_requests_when_it_starts_and_hourly(
    build_app: Any, sandbox_clock: FakeClock
) -> None:
    now = sandbox_clock()
    denied = _old_request(Ruling.DENIED, now - 2 * DAY)
    approved = _old_request(Ruling.APPROVED, now - 2 * DAY)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: denied not in _ids())
        assert approved in _ids()  # kept 30 days: History reads it
        later = _old_request(Ruling.TIMED_OUT, now - 2 * DAY)
        journal = app.journal_watch
        looks = journal.looks
        await wait_until(pilot, lambda: journal.looks > looks)
        assert later in _ids()  # not before the hour is up
        sandbox_clock.advance(3600)
        await wait_until(pilot, lambda: later not in _ids())
        assert approved in _ids()


def test_every_ruling_and_settled_progress_has_the_standing_of_its_name() -> None:
    settled = [*Ruling, Progress.SENT, Progress.UNKNOWN]
    assert {state.name for state in settled} <= {standing.name for standing in Standing}
