"""The one JobWatcher: bounded requests per tick, intervals, stale mark, pause, 401, off-screen."""

from __future__ import annotations

from typing import Any

import httpx

from leadtui.api.client import LeadClient
from leadtui.config.settings import MAX_SETTLED_REQUESTS_PER_MINUTE, Polling, Settings
from leadtui.ui.model.job_board import JobPoller
from tests.ui import jobs_seed
from tests.ui.pilot import settle, wait_until
from tests.ui.screen import notices, screen_text

API = "/api/v1"


def _poller(client: LeadClient) -> JobPoller:
    return JobPoller(lambda: client, Polling)


async def _tick_cost(poller: JobPoller, sandbox_http: httpx.AsyncClient, now: float) -> list[str]:
    before = len(await jobs_seed.requests_log(sandbox_http))
    await poller.tick(now)
    log = await jobs_seed.requests_log(sandbox_http)
    return [f"{r['method']} {r['path'].removeprefix(API)}" for r in log[before:]]


async def test_requests_per_tick_do_not_grow_with_settled_jobs(
    client: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: Any
) -> None:
    await jobs_seed.exports(client, 2)
    await jobs_seed.extraction(client)
    sandbox_clock.advance(60)  # everything settled
    poller = _poller(client)
    few = await _tick_cost(poller, sandbox_http, sandbox_clock())
    await jobs_seed.exports(client, 40)
    for _ in range(5):
        await jobs_seed.extraction(client)
    sandbox_clock.advance(60)
    many = await _tick_cost(poller, sandbox_http, sandbox_clock())
    assert few == many == ["GET /exports", "GET /extractions"]
    # The newest page of 25 merged with the 2 already known; older settled jobs cost nothing.
    assert len(poller.board.exports) == 27
    # Settled: the slow interval keeps the whole watcher within 12 requests a minute.
    assert 60 / poller.next_interval() * len(many) <= MAX_SETTLED_REQUESTS_PER_MINUTE


async def test_moving_jobs_poll_fast_with_retry_after_then_slow_when_settled(
    client: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    poller = _poller(client)
    cost = await _tick_cost(poller, sandbox_http, sandbox_clock())
    assert f"GET /exports/{export.exportId}" in cost  # details of the job still moving
    assert poller.next_interval() <= Polling().fast_seconds  # Retry-After from the sandbox
    sandbox_clock.advance(1)
    await poller.tick(sandbox_clock())
    assert poller.board.exports[export.exportId].status == "ready"
    assert poller.next_interval() == Polling().slow_seconds


async def test_errors_back_off_and_mark_stale(build_app: Any, sandbox_clock: Any) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    app = build_app(transport=httpx.MockTransport(refuse))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await pilot.pause()
        watcher = app.jobs
        watcher.toggle_pause()  # only the ticks this test runs
        await watcher.tick()
        first = watcher.poller.next_interval()
        await watcher.tick()
        await pilot.pause()
        assert watcher.board.stale
        assert watcher.poller.next_interval() > first >= Polling().slow_seconds
        assert "⚠ stale: Cannot reach the server" in screen_text(app)


async def test_401_stops_polling_with_the_frames_message(build_app: Any) -> None:
    app = build_app("sk_demo_revoked")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        watcher = app.jobs
        assert watcher.board.stopped
        assert watcher.next_tick_at is None  # no timer left running
        text = screen_text(app)
        assert "Key rejected" in text
        assert "polling stopped" in text


async def test_r_refreshes_now_and_p_pauses(
    build_app: Any, client: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: Any
) -> None:
    await jobs_seed.exports(client, 1)
    sandbox_clock.advance(60)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.press("p")
        await pilot.pause()
        assert "‖ polling paused (p resumes" in screen_text(app)
        assert app.jobs.next_tick_at is None
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("r")  # paused: reads once, stays paused
        await wait_until(pilot, lambda: len(notices(app)) > 1)
        await app.workers.wait_for_complete()
        log = await jobs_seed.requests_log(sandbox_http)
        assert {r["path"] for r in log[before:]} >= {f"{API}/exports", f"{API}/extractions"}
        assert "Reading once; polling stays paused (p resumes)." in [
            words for _, words in notices(app)
        ]
        assert app.jobs.paused
        assert app.jobs.next_tick_at is None
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("p", "r")
        await wait_until(pilot, lambda: not app.jobs.paused)
        await settle(pilot)
        log = await jobs_seed.requests_log(sandbox_http)
        assert {r["path"] for r in log[before:]} >= {f"{API}/exports", f"{API}/extractions"}
        assert "● live · updated just now" in screen_text(app)


async def test_hidden_dashboard_polls_only_followed_moving_jobs_and_announces_them(
    build_app: Any, client: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    settings = Settings(notify_bell=True, notify_desktop=True)
    app = build_app(settings=settings)
    written: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await app.workers.wait_for_complete()
        watcher = app.jobs
        watcher.notifier.write = written.append
        await pilot.press("1")  # the dashboard is hidden; the export still moves
        await pilot.pause()
        assert not watcher.visible
        assert watcher.next_tick_at is not None
        assert watcher.next_tick_at - sandbox_clock() >= settings.polling.slow_seconds
        sandbox_clock.advance(1)
        before = len(await jobs_seed.requests_log(sandbox_http))
        await watcher.tick()
        log = await jobs_seed.requests_log(sandbox_http)
        assert [r["path"] for r in log[before:]] == [f"{API}/exports/{export.exportId}"]
        await pilot.pause()
        assert app.current_mode == "account"
        toasts = notices(app)  # shown on any screen
        assert (
            "✓ Export is ready",
            f"{export.exportId} is ready — Jobs (4) to download",
        ) in toasts
        assert "\a" in written
        assert any(w.startswith("\x1b]9;✓ Export is ready") for w in written)
        assert any("\x1b]777;notify;" in w for w in written)
        assert watcher.next_tick_at is None  # nothing followed moves: no more requests


async def test_a_job_the_server_lost_is_dropped_and_polling_goes_on(
    build_app: Any, client: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: Any
) -> None:
    (settled,) = await jobs_seed.exports(client, 1)
    sandbox_clock.advance(60)
    (moving,) = await jobs_seed.exports(client, 1)  # followed: still queued
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: moving.exportId in screen_text(app))
        watcher = app.jobs
        assert ("export", moving.exportId) in watcher.board.followed
        # The server restarts without its database: both exports are gone.
        assert (await sandbox_http.post("/_sandbox/reset")).status_code == 200
        await watcher.tick()
        await wait_until(pilot, lambda: moving.exportId not in screen_text(app))
        text = screen_text(app)
        assert settled.exportId not in text
        assert "stale" not in text
        assert "● live · updated just now" in text
        assert any(
            title == "Jobs gone" and moving.exportId in words for title, words in notices(app)
        )
        assert watcher.next_tick_at is not None  # polling goes on
        await watcher.tick()  # and nothing is stuck on the lost job
        assert not watcher.board.stale
