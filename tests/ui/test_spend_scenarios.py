"""The scenario table through the app, read from the screen: the confirmation asks (and says
why), a refusal is shown with its code and nothing is sent, a spend within what was set in
advance goes without asking. An overcharging server is reported with its request id."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import httpx
import pytest

from leadtui.api.models import SearchRequest
from leadtui.config.settings import Settings, SpendPolicy
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal, default_journal_path
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.pending_spends import PendingSpends
from leadtui.ui.frame.spend_flow import confirm_and_spend
from tests.spend.scenarios import (
    IDS,
    ROWS,
    SEARCH,
    Row,
    arrange,
    outcome_of,
    request_for,
    spend_posts,
)
from tests.ui.pilot import settle, wait_for_screen, wait_until
from tests.ui.screen import notices, screen_text

_BOX = re.compile(r"[█│╭╮╰╯▀▄─]")


def words(app: Any) -> str:
    """The screen's words, borders left out, one space between them."""
    return " ".join(_BOX.sub(" ", screen_text(app)).split())


def dialog_words(app: Any) -> str:
    """The words inside the dialog's box, as the screen shows them."""
    region = app.screen.query_one(".confirm-box").region
    lines = screen_text(app).splitlines()[region.y : region.y + region.height]
    inside = [line[region.x : region.x + region.width] for line in lines]
    return " ".join(_BOX.sub(" ", "\n".join(inside)).split())


async def _spends(http: httpx.AsyncClient) -> list[dict[str, Any]]:
    return spend_posts((await http.get("/_sandbox/requests")).json()["data"])


@pytest.mark.parametrize("row", ROWS, ids=IDS)
async def test_the_app(row: Row, build_app: Any, sandbox_http: httpx.AsyncClient) -> None:
    arranged = await arrange(row, sandbox_http)
    app = build_app(settings=Settings(spend_budget=row.budget, read_only=row.read_only))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        if row.pending_same:  # offered at start; decided later
            await wait_for_screen(pilot, PendingSpends)
            await pilot.press("escape")
            await settle(pilot)
        request = await request_for(row, arranged, app.client)
        before = await _spends(sandbox_http)
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        verdict, code = row.app
        if verdict == "ask":
            dialog = await wait_for_screen(pilot, ConfirmSpend)
            assert outcome_of(dialog.decision) == row.app
            # Mounted (Cancel has the focus) and read.
            await wait_until(pilot, lambda: getattr(app.focused, "id", "") == "confirm-cancel")
            await wait_until(pilot, lambda: dialog.decision.message in dialog_words(app))
            assert "Press y to" in dialog_words(app)
            await pilot.press("escape")
            await worker.wait()
            assert worker.result is None
        elif verdict == "refuse":
            await worker.wait()
            await wait_until(pilot, lambda: f"code {code}" in words(app))
            assert not isinstance(app.screen, ConfirmSpend)
            assert worker.result is None
        else:
            await worker.wait()
            assert isinstance(worker.result, SpendResult), words(app)
        sent = (await _spends(sandbox_http))[len(before) :]
        assert len(sent) == (1 if verdict == "send" and not row.reused_key else 0)


async def test_an_overcharge_is_reported_with_its_request_id(
    build_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 4})
    row = Row("budget covering", ("send", None), ("send", None), budget=10)
    arranged = await arrange(row, sandbox_http)
    await sandbox_http.put("/_sandbox/pricing", json={"charged": 4})
    app = build_app(settings=Settings(spend_budget=10))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        request = await request_for(row, arranged, app.client)
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        await worker.wait()
        assert isinstance(worker.result, SpendResult)
        (sent,) = await _spends(sandbox_http)

        # A toast (as the job watcher's tests read them), with the request id.
        def overcharges() -> str:
            return " ".join(words for title, words in notices(app) if title == "Overcharged")

        await wait_until(pilot, overcharges)
        assert "the server debited 20 credits for a spend quoted at 5 credits" in overcharges()
        assert sent["request_id"] in overcharges()
        await wait_until(pilot, lambda: app.credits == 10_000 - 20)
        # History's spends say what was debited against the quote, and who spent it.
        await pilot.press("H")
        await wait_until(pilot, lambda: "20 (quoted 5)" in words(app))
        assert "Overcharged" in words(app)


async def test_a_spend_made_elsewhere_moves_the_balance_and_history_says_who(
    build_app: Any, make_client: Any
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        # The journal as the app first sees it; no job is being watched.
        await wait_until(pilot, lambda: app.journal_watch.started)
        assert not app.jobs.board.watched()
        # The command line, another process on the same journal file, spends 7 credits.
        client = make_client()
        search = await client.searches.create(SearchRequest.model_validate(SEARCH))
        policy = SpendPolicy(spend_budget=0, read_only=False)
        elsewhere = SpendGate(
            SpendJournal(default_journal_path()), profile="default", policy=policy
        )
        request = SpendRequest.for_unlock(Quote.unlock(search, 7, None), search.searchId)
        await elsewhere.spend(request, client, Authorization(Surface.CLI, ceiling=7))
        await wait_until(pilot, lambda: "◆ 9,993 credits" in words(app))
        await pilot.press("H")
        await wait_until(pilot, lambda: "command line" in words(app))
        assert f"7 succeeded command line --max-credits unlock {search.searchId}" in words(app)
