"""A spend whose answer is lost (crash, injected fault) is offered again and debited once."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from leadtui.api.models import SearchRequest
from leadtui.config.settings import SpendPolicy
from leadtui.spend.account import SpendAccount
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.pending_spends import PendingSpends
from leadtui.ui.frame.spend_flow import confirm_and_spend, unlock_request
from tests.support import spend_requests
from tests.ui.conftest import SANDBOX_URL
from tests.ui.pilot import settle
from tests.ui.screen import screen_text

ONE_EACH = SearchRequest.model_validate(
    {
        "activities": [{"name": "Plumber"}],
        "countries": [{"name": "France"}],
        "localisations": [{"name": "Paris"}],
    }
)


async def _unlocks(sandbox_http: Any) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


def _journaled_by_an_earlier_run(request: SpendRequest) -> None:
    gate = SpendGate(SpendJournal(), profile="default", policy=SpendPolicy(0, read_only=False))
    spend_requests.journal_intent(
        gate, request, SANDBOX_URL, SpendAccount("…full", "acct_demo", "Demo Co")
    )


async def test_crash_between_journal_and_answer_resends_same_key_debits_once(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    request = spend_requests.unlock(search.searchId, 7)
    # The previous run: intent journaled, request sent (the server debited), then a crash
    # before the outcome was written.
    _journaled_by_an_earlier_run(request)
    await client.exports.create(search.searchId, 7, idempotency_key=request.idempotency_key)
    assert (await client.me()).credits == 10_000 - 7

    app = build_app()  # the next start
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PendingSpends)
        text = screen_text(app)
        assert f"Unlock 7 results of {search.searchId}" in text
        assert request.short_key in text
        await pilot.press("r")
        await settle(pilot)
        assert not isinstance(app.screen, PendingSpends)
        assert app.credits == 10_000 - 7  # debited once, not twice
    sent = await _unlocks(sandbox_http)
    assert [r["idempotency_key"] for r in sent] == [request.idempotency_key] * 2
    assert (await client.me()).credits == 10_000 - 7
    settled = SpendJournal().get(request.idempotency_key)
    assert settled is not None
    assert settled.outcome == "succeeded"


async def test_discarded_intent_is_not_offered_again(build_app: Any, client: Any) -> None:
    search = await client.searches.create(ONE_EACH)
    request = spend_requests.unlock(search.searchId, 2)
    _journaled_by_an_earlier_run(request)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PendingSpends)
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, PendingSpends)
    assert SpendJournal().pending() == []
    assert (await client.me()).credits == 10_000


@pytest.mark.parametrize(
    "seed", [1, 2, 4], ids=["cut-after-commit", "502-after-commit", "503-before"]
)
async def test_injected_fault_leaves_intent_pending_and_resend_debits_once(
    build_app: Any, client: Any, sandbox_app: Any, sandbox_http: Any, seed: int
) -> None:
    import random

    search = await client.searches.create(ONE_EACH)
    state = sandbox_app.state.sandbox
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        request = unlock_request(search, 4, app.credits)
        state.config.fault_rate, state.fault_rng = 1.0, random.Random(seed)
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        await pilot.pause()
        await pilot.press("y")
        await worker.wait()
        await settle(pilot)
        state.config.fault_rate = 0.0
        assert worker.result is None
        assert isinstance(app.screen, PendingSpends)  # outcome unknown: offered at once
        await pilot.press("r")
        await settle(pilot)
        assert app.credits == 10_000 - 4
    keys = {r["idempotency_key"] for r in await _unlocks(sandbox_http)}
    assert keys == {request.idempotency_key}
    assert (await client.me()).credits == 10_000 - 4
