"""Where a download goes: the folder shown before it starts, another folder for one file (`a`,
`O`, `W`), checked as it is typed; the download folder setting never changes."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual import events
from textual.command import CommandPalette
from textual.widgets import Input, Label, RadioButton, SelectionList, Static

from leadtui.config.settings import Settings
from leadtui.ui.dialogs.custom_download import CustomDownload
from leadtui.ui.dialogs.save_to import SaveTo
from leadtui.ui.screens.help import HelpScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.widgets.job_tables import ExtractionTable
from tests.ui import jobs_seed
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import flat_text, footer_text


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    return tmp_path / "downloads"


@pytest.fixture
def app(build_app: Any, downloads: Path) -> Any:
    return build_app(settings=Settings(download_dir=downloads))


async def _ready_export(client: Any, sandbox_clock: Any, size: int = 3) -> str:
    (export,) = await jobs_seed.exports(client, 1, size=size)
    sandbox_clock.advance(1)
    return export.exportId


async def _type_folder(pilot: Any, folder: str) -> None:
    """Empty the field, paste `folder` (as a terminal pastes: one event, not a key a char,
    which a long temporary path would make slow), and wait for the line under it to speak
    of it."""
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveTo)
    await pilot.press("ctrl+u")
    dialog.field.post_message(events.Paste(folder))
    await wait_until(pilot, lambda: dialog.field.value == folder)
    await wait_until(pilot, lambda: _checked(pilot.app, folder))


def _checked(app: Any, folder: str) -> bool:
    """The line under the field is about `folder` (the check of what was typed is back)."""
    said = _under_the_field(app)
    return f"in {folder}" in said or said.startswith("✗ ")


def _under_the_field(app: Any) -> str:
    """The line under the folder field, as one line (it wraps in the dialog's box)."""
    dialog = app.screen
    if not isinstance(dialog, SaveTo):
        return ""
    return " ".join(str(dialog.query_one("#save-to-reason", Static).render()).split())


async def _says(pilot: Any, words: str) -> None:
    await wait_until(pilot, lambda: words in _under_the_field(pilot.app))


def _download_line(app: Any) -> str:
    """The jobs screen's last line: where the last file went (it wraps a long path)."""
    return str(app.screen.query_one("#download-label", Label).render())


async def _line_says(pilot: Any, words: str) -> None:
    await wait_until(pilot, lambda: words in _download_line(pilot.app))


async def _checked_again(pilot: Any) -> None:
    """Until the check Enter makes (before it saves anything) is over. No settle: the worker
    that opened the dialog waits for it."""

    def checking() -> bool:
        return any(w.group == "save-to-save" and not w.is_finished for w in pilot.app.workers)

    await wait_until(pilot, lambda: not checking())


def _files(folder: Path) -> list[str]:
    """The names in `folder`; none when it was never made."""
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


async def _downloads_asked(sandbox_http: httpx.AsyncClient) -> list[str]:
    return [
        r["path"]
        for r in await jobs_seed.requests_log(sandbox_http)
        if r["path"].endswith(("/download", "/download/custom"))
    ]


async def test_the_folder_shows_before_a_download_and_a_sends_one_file_elsewhere(
    app: Any, client: Any, sandbox_clock: Any, downloads: Path, tmp_path: Path
) -> None:
    export_id = await _ready_export(client, sandbox_clock, size=4)
    elsewhere = tmp_path / "clients" / "acme"
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export_id)
        await wait_for_text(pilot, f"d saves {export_id}.zip to {downloads} · a asks where")
        await pilot.press("a")
        dialog = await wait_for_screen(pilot, SaveTo)
        # The file named, the field on the download folder, and where that would put it.
        await _says(pilot, f"✓ saves {export_id}.zip in {downloads} (a new folder, created on")
        assert f"Save {export_id}.zip to…" in flat_text(app)
        assert dialog.field.value == str(downloads)
        await _type_folder(pilot, str(elsewhere))
        await _says(pilot, f"✓ saves {export_id}.zip in {elsewhere} (a new folder")
        await pilot.press("enter")
        saved = elsewhere / f"{export_id}.zip"
        await _line_says(pilot, f"✓ Saved {saved}")
        await settle(pilot)
        with zipfile.ZipFile(saved) as archive:
            assert {"leads.csv", "leads.json"} <= set(archive.namelist())
        assert [p.name for p in elsewhere.iterdir()] == [saved.name]  # no .part left
        assert _files(downloads) == []
        # For that file only: the setting and what d says stay as they were.
        assert app.settings.download_dir == downloads
        assert f"d saves {export_id}.zip to {downloads}" in flat_text(app)
        await pilot.press("y")
        assert app.clipboard == str(saved)
        # The next question starts on the folder given last (this session).
        await pilot.press("a")
        dialog = await wait_for_screen(pilot, SaveTo)
        assert dialog.field.value == str(elsewhere)
        await pilot.press("enter")
        await _line_says(pilot, f"✓ Saved {elsewhere / f'{export_id}-1.zip'}")
        await settle(pilot)
        # d still goes to the download folder.
        await pilot.press("d")
        await _line_says(pilot, f"✓ Saved {downloads / f'{export_id}.zip'}")
        await settle(pilot)
    assert zipfile.is_zipfile(downloads / f"{export_id}.zip")


async def test_a_folder_that_cannot_take_files_says_why_and_nothing_is_downloaded(
    app: Any, client: Any, sandbox_clock: Any, sandbox_http: httpx.AsyncClient, tmp_path: Path
) -> None:
    export_id = await _ready_export(client, sandbox_clock)
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file where a folder would be")
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export_id)
        await pilot.press("a")
        dialog = await wait_for_screen(pilot, SaveTo)
        await _type_folder(pilot, str(blocker / "leads"))
        await _says(pilot, f"✗ {blocker} is a file, not a folder")
        await pilot.press("enter")  # refused where the user is: the dialog stays, says why
        await _checked_again(pilot)
        assert app.screen is dialog
        assert _under_the_field(app) == f"✗ {blocker} is a file, not a folder"
        await _type_folder(pilot, "")
        await _says(pilot, "✗ type a folder")
        await pilot.press("enter")
        await _checked_again(pilot)
        assert app.screen is dialog
        await pilot.press("escape")
        await wait_for_screen(pilot, JobsScreen)
        await settle(pilot)
        assert "Saved" not in _download_line(app)
    assert await _downloads_asked(sandbox_http) == []
    assert blocker.read_text() == "a file where a folder would be"
    assert _files(tmp_path / "downloads") == []


async def test_esc_cancels_and_nothing_is_downloaded(
    app: Any, client: Any, sandbox_clock: Any, sandbox_http: httpx.AsyncClient, downloads: Path
) -> None:
    export_id = await _ready_export(client, sandbox_clock)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, select=export_id)
        await pilot.press("a")
        await wait_for_screen(pilot, SaveTo)
        await _says(pilot, f"✓ saves {export_id}.zip in {downloads}")
        await pilot.press("escape")
        await wait_for_screen(pilot, JobsScreen)
        await settle(pilot)
        assert "Saved" not in _download_line(app)
        assert screen.active_bindings["a"].enabled  # nothing is running
    assert await _downloads_asked(sandbox_http) == []
    assert _files(downloads) == []


async def test_tab_completes_a_subfolder_and_a_relative_folder_is_from_the_working_one(
    app: Any, client: Any, sandbox_clock: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export_id = await _ready_export(client, sandbox_clock)
    (tmp_path / "projects" / "acme").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export_id)
        await pilot.press("a")
        dialog = await wait_for_screen(pilot, SaveTo)
        await pilot.press("ctrl+u", *"./pro")
        await wait_until(pilot, lambda: dialog.field.value == "./pro")
        await wait_for_text(pilot, "./projects/")  # the completion, shown after what is typed
        await pilot.press("tab")
        await wait_until(pilot, lambda: dialog.field.value == "./projects/")
        await wait_for_text(pilot, "./projects/acme/")
        await pilot.press("tab")
        await wait_until(pilot, lambda: dialog.field.value == "./projects/acme/")
        folder = tmp_path / "projects" / "acme"
        await _says(pilot, f"✓ saves {export_id}.zip in {folder}")
        assert "a new folder" not in _under_the_field(app)
        assert isinstance(dialog.focused, Input)  # Tab completed; the focus stayed
        await pilot.press("enter")
        await _line_says(pilot, f"✓ Saved {folder / f'{export_id}.zip'}")
        await settle(pilot)


async def test_custom_download_to_a_folder_asks_after_the_columns(
    app: Any, client: Any, sandbox_clock: Any, downloads: Path, tmp_path: Path
) -> None:
    export_id = await _ready_export(client, sandbox_clock)
    elsewhere = tmp_path / "custom"
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export_id)
        await pilot.press("O")
        dialog = await wait_for_screen(pilot, CustomDownload)
        columns = dialog.query_one("#custom-columns", SelectionList)
        columns.deselect_all()
        columns.select("company")
        dialog.query_one("#format-csv", RadioButton).value = True
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, SaveTo)
        await _says(pilot, f"✓ saves {export_id}-custom.zip in {downloads}")
        await _type_folder(pilot, str(elsewhere))
        await pilot.press("enter")
        saved = elsewhere / f"{export_id}-custom.zip"
        await _line_says(pilot, f"✓ Saved {saved}")
        await settle(pilot)
    with zipfile.ZipFile(saved) as archive:
        assert archive.namelist() == ["leads.csv"]
        rows = list(csv.reader(io.StringIO(archive.read("leads.csv").decode())))
    assert rows[0] == ["company"]
    assert _files(downloads) == []


async def test_the_rows_as_csv_to_a_folder(
    app: Any, client: Any, downloads: Path, tmp_path: Path
) -> None:
    await jobs_seed.extraction(client)
    elsewhere = tmp_path / "sheets"
    async with app.run_test(size=(120, 34)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("W")
        await wait_for_screen(pilot, SaveTo)
        await _says(pilot, "✓ saves extractions-")
        await _type_folder(pilot, str(elsewhere))
        await pilot.press("enter")
        await _line_says(pilot, f"✓ 1 rows saved to {elsewhere}")
        await settle(pilot)
    (path,) = elsewhere.iterdir()
    assert path.name.startswith("extractions-")
    assert path.suffix == ".csv"
    assert next(csv.reader(io.StringIO(path.read_text())))[0] == "Extraction"
    assert _files(downloads) == []


async def test_the_keys_are_in_the_footer_help_and_palette(
    app: Any, client: Any, sandbox_clock: Any, downloads: Path
) -> None:
    export_id = await _ready_export(client, sandbox_clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, select=export_id)
        await wait_until(pilot, lambda: "d ZIP  a ZIP to…  o Columns" in footer_text(app))
        await pilot.press("question_mark")
        await wait_for_screen(pilot, HelpScreen)
        said = await wait_for_text(pilot, "a ZIP to…")
        assert "O Columns to…" in said
        assert "W CSV to…" in said
        await pilot.press("escape")
        await wait_for_screen(pilot, JobsScreen)
        # The palette names each with its key, and says what it does; choosing it runs it.
        await pilot.press("ctrl+p")
        await wait_for_screen(pilot, CommandPalette)
        await pilot.press(*"zip to")
        said = await wait_for_text(pilot, "jobs: ZIP to… a")
        assert "Download the export's ZIP to a folder you type (this file only)" in said
        await pilot.press("enter")
        await wait_for_screen(pilot, SaveTo)
        await _says(pilot, f"✓ saves {export_id}.zip in {downloads}")
