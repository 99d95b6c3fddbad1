"""What the jobs dashboard tells a user, read off the screen: a running action and its greyed
key, failure reasons, theme colours, columns that fit, toasts that name working keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.config.settings import Settings
from leadtui.ui.widgets.job_tables import ExportTable, ExtractionTable
from tests.ui import jobs_seed
from tests.ui.screen import notices, screen_text, wait_until

API = "/api/v1"


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    return tmp_path / "downloads"


async def test_a_job_action_shows_it_runs_and_greys_its_key_until_the_answer(
    build_app: Any, sandbox_app: Any, client: Any, sandbox_clock: Any
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.2)  # running
    held = jobs_seed.Held(sandbox_app, hold=f"{API}/extractions/{extraction.extractionId}")
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, ExtractionTable, extraction.extractionId)
        assert screen.active_bindings["z"].enabled
        await pilot.press("z")
        await wait_until(pilot, lambda: held.held == 1)
        await pilot.pause()
        assert f"⟳ pausing {extraction.extractionId}…" in screen_text(app)
        assert not screen.active_bindings["z"].enabled
        await pilot.press("z")  # greyed: nothing is sent twice, nothing is cut
        await pilot.pause()
        assert held.held == 1
        held.release.set()
        await wait_until(pilot, lambda: "‖ paused" in screen_text(app))
        assert "⟳" not in screen_text(app)
        assert screen.active_bindings["z"].enabled


async def test_r_shows_it_refreshes_and_is_greyed_until_the_answer(
    build_app: Any, sandbox_app: Any
) -> None:
    held = jobs_seed.Held(sandbox_app, reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot)
        await pilot.press("p")  # paused: only the poll r asks for
        await wait_until(pilot, lambda: "‖ polling paused" in screen_text(app))
        held.hold = f"{API}/exports"
        await pilot.press("r")
        await wait_until(pilot, lambda: "⟳ refreshing… · ‖ polling paused" in screen_text(app))
        assert not screen.active_bindings["r"].enabled
        held.release.set()
        await wait_until(pilot, lambda: "⟳ refreshing" not in screen_text(app))
        assert screen.active_bindings["r"].enabled


async def test_a_failed_export_says_why_and_that_t_retries_at_no_cost(
    build_app: Any, sandbox_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    await jobs_seed.fail_export(sandbox_http, export.exportId)
    held = jobs_seed.Held(sandbox_app, extra={"failure_reason": "the lead store timed out"})
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExportTable, export.exportId)
        await wait_until(
            pilot,
            lambda: (
                f"✗ {export.exportId} failed: the lead store timed out · t retries it at no "
                "cost" in screen_text(app)
            ),
        )


async def test_a_failed_download_says_why_and_where(
    build_app: Any, client: Any, sandbox_clock: Any, tmp_path: Path
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    sandbox_clock.advance(1)
    (tmp_path / "blocker").write_text("a file where the folder should be")
    folder = tmp_path / "blocker" / "downloads"
    app = build_app(settings=Settings(download_dir=folder))
    async with app.run_test(size=(120, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExportTable, export.exportId)
        await pilot.press("d")
        await wait_until(pilot, lambda: "✗ Cannot save" in screen_text(app))
        said = " ".join(line.strip() for line in screen_text(app).splitlines())
        assert f"✗ Cannot save {export.exportId} in {folder}: Not a directory." in said


async def test_status_colours_follow_the_theme(build_app: Any, client: Any) -> None:
    await client.extractions.create_draft({"categories": ["garage"]})
    await jobs_seed.extraction(client)  # newer: the cursor sits on it, not on the draft
    app = build_app()

    def draft_colour() -> str | None:
        for strip in app.screen._compositor.render_strips():
            for segment in strip:
                if "✎ draft" in segment.text and segment.style and segment.style.color:
                    triplet = segment.style.color.get_truecolor()
                    return f"#{triplet.red:02x}{triplet.green:02x}{triplet.blue:02x}"
        return None

    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        dark_grey = app.current_theme.foreground.lower()  # light grey, on a dark background
        await wait_until(pilot, lambda: draft_colour() == dark_grey)
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: app.theme == "textual-light")
        # Repainted from the light theme: no longer light grey on a light background.
        await wait_until(pilot, lambda: draft_colour() not in (None, dark_grey))


async def test_columns_fit_ages_tick_and_one_date_format(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    long = {"categories": ["bakery", "florist"]}  # longer than the 16 it was cut at
    extraction = await jobs_seed.extraction(client, **long)
    sandbox_clock.advance(0.3)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        # The "What" column takes the free width: all of it shows at 100 columns.
        row = f"{extraction.extractionId}  bakery, florist · FR · Lyon "
        await wait_until(pilot, lambda: row in screen_text(app))
        line = next(t for t in screen_text(app).splitlines() if extraction.extractionId in t)
        assert "◐ running" in line
        assert "%" in line
        assert "2026-01-01 00:00" in line  # the date as every screen writes it
        sandbox_clock.advance(180)
        await wait_until(pilot, lambda: "3 min ago" in screen_text(app))


async def test_toasts_name_keys_that_work_where_the_user_is(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot)
        await wait_until(pilot, lambda: ("export", export.exportId) in app.jobs.board.followed)
        sandbox_clock.advance(1)
        await app.jobs.tick()
        await pilot.pause()
        assert f"{export.exportId} is ready; select it under Exports: d downloads it" in [
            words for _, words in notices(app)
        ]


async def test_stopping_an_extraction_raises_one_toast(
    build_app: Any, client: Any, sandbox_clock: Any
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.2)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, extraction.extractionId)
        await app.jobs.tick()  # seen running: followed
        await pilot.press("x")
        await wait_until(pilot, lambda: "Stop (y)" in screen_text(app))
        await pilot.press("y")
        await wait_until(pilot, lambda: "■ stopped" in screen_text(app))
        await app.jobs.tick()
        await app.jobs.tick()
        await pilot.pause()
        stopped = [n for n in notices(app) if "stopped" in n[0] + n[1]]
        assert len(stopped) == 1


async def test_the_footer_shows_the_focused_panels_keys_and_tab_switches(
    build_app: Any, client: Any
) -> None:
    await jobs_seed.exports(client, 1)
    await jobs_seed.extraction(client)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot)

        def footer() -> str:
            return screen_text(app).splitlines()[-1]

        await wait_until(pilot, lambda: "d ZIP" in footer())
        assert "m Edit" not in footer()
        await pilot.press("tab")
        await wait_until(pilot, lambda: "m Edit" in footer())
        assert "d ZIP" not in footer()
        assert "r Refresh" in footer()  # the screen's own keys stay
        await pilot.press("tab")
        await wait_until(pilot, lambda: "d ZIP" in footer())
