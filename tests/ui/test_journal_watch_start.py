"""The journal's one watch starts once the first GET /me answered, after the credits are
painted, or once it failed: never in start-up's way, never missing; and nothing planted beside
the journal blocks it or a spend."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import httpx

from leadtui.spend.journal import SpendJournal
from tests.ui.pilot import wait_for_text, wait_until
from tests.ui.search_walk import ONE_EACH, confirm_suggested_unlock, open_first_search


class HeldMe(httpx.AsyncBaseTransport):
    """The sandbox, except that GET /me waits for `release` (then answers, or fails as a lost
    connection would: a fault the sandbox cannot make on demand)."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport, *, fails: bool = False) -> None:
        self.sandbox = sandbox
        self.fails = fails
        self.release = asyncio.Event()
        self.asked = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/me"):
            self.asked.set()
            await self.release.wait()
            if self.fails:
                raise httpx.ConnectError("connection lost", request=request)
        return await self.sandbox.handle_async_request(request)


async def test_the_watch_waits_for_the_credits_then_starts(
    build_app: Any, sandbox_app: Any
) -> None:
    held = HeldMe(httpx.ASGITransport(app=sandbox_app))
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, held.asked.is_set)
        assert not app.journal_watch.started
        held.release.set()
        await wait_for_text(pilot, "10,000 credits")
        await wait_until(pilot, lambda: app.journal_watch.started)


async def test_the_watch_starts_after_a_failed_get_me_too(build_app: Any, sandbox_app: Any) -> None:
    held = HeldMe(httpx.ASGITransport(app=sandbox_app), fails=True)
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, held.asked.is_set)
        assert not app.journal_watch.started
        held.release.set()
        await wait_until(pilot, lambda: app.journal_watch.started)


async def test_fifos_beside_the_journal_and_in_the_old_approvals_folder_block_no_unlock(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    state = SpendJournal().path.parent
    (state / "approvals").mkdir(exist_ok=True)
    for name in ("approvals/0123abcd.json", "approvals/0123abcd.answer.json", "request.json"):
        os.mkfifo(state / name)
    await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.journal_watch.started)
        await open_first_search(app, pilot)
        await confirm_suggested_unlock(app, pilot)
        await pilot.press("y")
        await wait_for_text(pilot, "Unlocked 100")

    spent = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert [r["status"] for r in spent if r["path"].endswith("/exports")] == [202]
