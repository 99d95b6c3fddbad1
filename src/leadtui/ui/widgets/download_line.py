"""`DownloadLine`: the jobs screen's last line: a download's progress, then where a file went.

Archives and a table's CSV are written never half and never through a planted file: each goes
to a new exclusive file beside its free name (made safe from the export's id), renamed once
complete; a failure says why and where. A file goes to the download folder setting, or, for
the keys that ask where (`a`, `O`, `W`), to the folder given in `SaveTo` for that one file
(the next question starts there).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label, ProgressBar

from leadtui.api.errors import ApiError, LeadError
from leadtui.config.download_folder import free_path
from leadtui.ui.dialogs.custom_download import CustomDownloadChoice
from leadtui.ui.dialogs.save_to import SaveTo
from leadtui.ui.frame.handle import AppHandle, app_handle
from leadtui.ui.model.export_files import write_rows_csv

if TYPE_CHECKING:
    from textual.app import ComposeResult


class DownloadLine(Horizontal):
    """Hidden until the first download or CSV; `saved_path` is what `y` copies."""

    DEFAULT_CSS = """
    DownloadLine { height: auto; max-height: 3; padding: 0 1; display: none; }
    DownloadLine.-shown { display: block; }
    DownloadLine > Label { width: 1fr; }
    DownloadLine > ProgressBar { width: 24; }
    """

    # Bound to the ProgressBar (data_bind); total None = unknown size.
    total: reactive[float | None] = reactive(None, init=False)
    done: reactive[float] = reactive(0.0, init=False)

    def __init__(self) -> None:
        super().__init__(id="download-line")
        self.saved_path: Path | None = None
        # The last folder given to SaveTo: where the next question starts (this session only).
        self.asked_folder: Path | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="download-label", markup=False)
        yield ProgressBar(id="download-bar", show_eta=False).data_bind(
            total=DownloadLine.total, progress=DownloadLine.done
        )

    @property
    def lead_app(self) -> AppHandle:
        return app_handle(self)

    def folder(self) -> Path:
        """The download folder setting: where a file goes unless the user says otherwise."""
        return Path(self.lead_app.settings.download_dir).expanduser()

    async def ask_folder(self, name: str) -> Path | None:
        """Where the file `name` goes, asked in `SaveTo`; None when the user cancels. Call
        from a worker (it waits for the dialog)."""
        start = self.asked_folder or self.folder()
        folder = await self.app.push_screen_wait(SaveTo(name, start))
        if folder is not None:
            self.asked_folder = folder
        return folder

    def _say(self, words: str, *, progress: bool = False) -> None:
        self.add_class("-shown")
        self.query_one(ProgressBar).display = progress
        self.query_one(Label).update(words)
        self.screen.refresh_bindings()  # `y` copies a path once there is one

    async def save(
        self,
        export_id: str,
        name: str,
        choice: CustomDownloadChoice | None = None,
        *,
        folder: Path | None = None,
    ) -> Path | None:
        """Download an export's archive (or a custom one) to a free name in `folder` (the
        download folder when None)."""
        folder = folder or self.folder()
        self.total, self.done = None, 0.0
        try:
            target = await asyncio.to_thread(free_path, folder, name)
        except OSError as error:
            self._say(f"✗ Cannot save {export_id} in {folder}: {error.strerror or error}.")
            return None
        self._say(f"Downloading {export_id} → {target}", progress=True)

        def progress(done: int, total: int | None) -> None:
            self.total, self.done = total, float(done)

        exports = self.lead_app.client.exports
        try:
            if choice is None:
                path = await exports.download(export_id, target, on_progress=progress)
            else:
                path = await exports.custom_download(
                    export_id, target, choice.columns, choice.format, on_progress=progress
                )
        except ApiError as error:
            self._say(f"✗ Download of {export_id} failed: nothing was left half-written.")
            self.lead_app.notify_error(error)
            return None
        except LeadError as error:  # the file could not be written: the error says why, where
            self._say(f"✗ {error}")
            return None
        except OSError as error:
            self._say(f"✗ Cannot save {target}: {error.strerror or error}.")
            return None
        self.saved_path = path
        self._say(f"✓ Saved {path}  (y copies the path)")
        self.notify(f"Saved {path}", title="Downloaded", timeout=6, markup=False)
        return path

    async def write_csv(
        self, name: str, rows: list[list[str]], *, folder: Path | None = None
    ) -> Path | None:
        """Rows (header first) as a CSV file in `folder` (the download folder when None)."""
        folder = folder or self.folder()
        try:
            path = await asyncio.to_thread(write_rows_csv, folder, name, rows)
        except OSError as error:
            self._say(f"✗ Cannot write {name} in {folder}: {error.strerror or error}.")
            return None
        self.saved_path = path
        self._say(f"✓ {len(rows) - 1} rows saved to {path}  (y copies the path)")
        return path

    def copy_path(self) -> None:
        if self.saved_path is not None:
            self.app.copy_to_clipboard(str(self.saved_path))
            self.notify(f"Copied {self.saved_path}", timeout=3, markup=False)
