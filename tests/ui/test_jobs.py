"""The jobs dashboard's export actions, driven with Pilot against the sandbox."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Label, RadioButton, SelectionList, Static

from leadtui.config.settings import Settings
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.dialogs.custom_download import CustomDownload
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.widgets.job_tables import ExportTable, ExtractionTable
from tests.ui import jobs_seed
from tests.ui.pilot import wait_for_screen, wait_until
from tests.ui.screen import notices, screen_text

API = "/api/v1"


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    return tmp_path / "downloads"


@pytest.fixture
def jobs_app(build_app: Any, downloads: Path) -> Any:
    return build_app(settings=Settings(download_dir=downloads))


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _enabled(screen: JobsScreen, key: str) -> bool:
    return screen.active_bindings[key].enabled


async def test_rows_update_in_place_and_selection_stays(
    jobs_app: Any, client: Any, sandbox_clock: Any
) -> None:
    _, second, _ = await jobs_seed.exports(client, 3)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, select=second.exportId)
        table = screen.query_one(ExportTable)
        assert "◌ queued" in screen_text(jobs_app)
        assert not _enabled(screen, "d")  # download greyed out until ready
        sandbox_clock.advance(0.2)  # processing
        await jobs_app.jobs.tick()
        await pilot.pause()
        assert "◐ processing" in screen_text(jobs_app)
        await jobs_seed.exports(client, 1)  # a new job appears at the top
        sandbox_clock.advance(1)
        await jobs_app.jobs.tick()
        await pilot.pause()
        assert table.row_count == 4
        assert table.focused_row is not None
        assert table.focused_row.exportId == second.exportId
        assert "✓ ready" in screen_text(jobs_app)
        assert _enabled(screen, "d")


async def test_a_greyed_job_key_says_what_the_selected_job_is_not(
    jobs_app: Any, client: Any, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1)
    extraction = await jobs_seed.extraction(client)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, select=export.exportId)
        assert "◌ queued" in screen_text(jobs_app)
        assert not _enabled(screen, "t")
        await pilot.press("t", "a")
        await wait_until(pilot, lambda: len(notices(jobs_app)) >= 2)
        said = [words for _, words in notices(jobs_app)]
        assert f"{export.exportId} is queued: Retry is for failed exports." in said
        assert f"{export.exportId} is queued: ZIP to… is for ready exports." in said
        assert not any("lacks" in words for words in said)  # the key holds every scope
        sandbox_clock.advance(1)
        await jobs_seed.open_jobs(pilot, ExtractionTable, select=extraction.extractionId)
        await pilot.press("l")
        await wait_until(pilot, lambda: len(notices(jobs_app)) >= 3)
        status = screen.query_one(ExtractionTable).focused_row.status
        assert f"{extraction.extractionId} is {status}: Launch is for draft extractions." in [
            words for _, words in notices(jobs_app)
        ]


async def test_failed_export_is_retried_without_a_debit(
    jobs_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=7)
    await jobs_seed.fail_export(sandbox_http, export.exportId)
    credits_before = (await client.me()).credits
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, select=export.exportId)
        assert "✗ failed" in screen_text(jobs_app)
        assert _enabled(screen, "t")
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("t")
        dialog = await wait_for_screen(pilot, ConfirmText)
        text = str(dialog.query_one(".confirm-text", Static).render())
        assert "Retrying a failed export uses no credits." in text
        await pilot.press("y")
        await jobs_app.workers.wait_for_complete()
        await pilot.pause()
        assert f"Export {export.exportId} is queued again — no credits used." in [
            words for _, words in notices(jobs_app)
        ]
        assert "◌ queued" in screen_text(jobs_app)
    assert (await client.me()).credits == credits_before
    posts = [
        r for r in (await jobs_seed.requests_log(sandbox_http))[before:] if r["method"] == "POST"
    ]
    assert [r["path"] for r in posts] == [f"{API}/exports/{export.exportId}/retry"]


async def test_results_of_an_export_that_is_not_ready_say_so(
    jobs_app: Any, client: Any, sandbox_clock: Any
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=4)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export.exportId)
        await pilot.press("v")
        await pilot.pause()
        assert any(
            "its results can be read once it is ready" in words for _, words in notices(jobs_app)
        )
        assert isinstance(jobs_app.screen, JobsScreen)
        sandbox_clock.advance(1)
        await jobs_app.jobs.tick()
        await pilot.pause()
        await pilot.press("v")
        await jobs_app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(jobs_app.screen, JobResultsScreen)
        assert "4 results" in screen_text(jobs_app)
        await pilot.press("escape")
        assert isinstance(jobs_app.screen, JobsScreen)


async def test_download_saves_a_valid_zip_atomically_and_shows_the_path(
    jobs_app: Any, client: Any, sandbox_clock: Any, downloads: Path
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=5)
    sandbox_clock.advance(1)
    async with jobs_app.run_test(size=(120, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export.exportId)
        await pilot.press("d")
        await jobs_app.workers.wait_for_complete()
        await pilot.pause()
        path = downloads / f"{export.exportId}.zip"
        assert zipfile.is_zipfile(path)
        with zipfile.ZipFile(path) as archive:
            assert {"leads.csv", "leads.json"} <= set(archive.namelist())
            assert len(json.loads(archive.read("leads.json"))) == 5
        assert _names(downloads) == [path.name]  # no .part left behind
        label = jobs_app.screen.query_one("#download-label", Label)
        assert f"✓ Saved {path}" in str(label.render())
        await pilot.press("y")
        assert jobs_app.clipboard == str(path)
        await pilot.press("d")  # a second download never overwrites the first
        await jobs_app.workers.wait_for_complete()
        assert zipfile.is_zipfile(downloads / f"{export.exportId}-1.zip")


async def test_custom_download_with_picked_columns_and_format(
    jobs_app: Any, client: Any, sandbox_clock: Any, downloads: Path
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=3)
    sandbox_clock.advance(1)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export.exportId)
        await pilot.press("o")
        dialog = await wait_for_screen(pilot, CustomDownload)
        columns = dialog.query_one("#custom-columns", SelectionList)
        assert "website" in columns._values  # the authorized columns, from the export's leads
        columns.deselect_all()
        columns.select("company")
        columns.select("city")
        dialog.query_one("#format-json", RadioButton).value = True
        await pilot.pause()
        # Ticked, unticked and the chosen format read apart without colour (NO_COLOR).
        text = screen_text(jobs_app)
        assert "▐✓▌ company" in text
        assert "▐ ▌ leadId" in text
        assert "▐ ▌ CSV" in text
        assert "▐●▌ JSON" in text
        await pilot.click("#custom-ok")  # the button runs the same action as ctrl+s
        await jobs_app.workers.wait_for_complete()
        await pilot.pause()
    path = downloads / f"{export.exportId}-custom.zip"
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["leads.json"]
        leads = json.loads(archive.read("leads.json"))
    assert len(leads) == 3
    assert set(leads[0]) == {"company", "city"}


async def test_visible_rows_export_to_csv(jobs_app: Any, client: Any, downloads: Path) -> None:
    await jobs_seed.exports(client, 2)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot)
        await pilot.press("w")
        await jobs_app.workers.wait_for_complete()
        await pilot.pause()
        (name,) = _names(downloads)
        path = downloads / name
        rows = list(csv.reader(io.StringIO(path.read_text())))
        assert rows[0] == ["Export", "Search", "Results", "Status", "Updated", "Created"]
        assert [r[0] for r in rows[1:]] == ["exp_000002", "exp_000001"]
        # Raw values, not what is drawn: status words, numbers, ISO 8601 times with offset.
        _, search, results, status, updated, created = rows[1]
        assert (search, results, status) == ("srch_000001", "3", "queued")
        assert created == "2026-01-01T00:00:00+00:00"
        assert updated.startswith("2026-01-01T")
        assert updated.endswith("+00:00")
        assert "2 rows saved to" in screen_text(jobs_app)
