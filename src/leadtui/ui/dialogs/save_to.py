"""SaveTo: the folder one download (or CSV) goes to, typed where it is checked.

The field starts on a folder (the download folder, or the last one given here this session)
and says under it, as the user types, where the file will go or why it cannot: the folder must
exist or be creatable, and be writable. Enter saves there; Esc cancels. The download folder
setting is not changed. The file system is looked at in a thread: a slow or hung mount never
freezes the screen.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from leadtui.config.download_folder import FolderCheck, check_folder, complete_folder
from leadtui.ui.frame.stylesheets import stylesheet


class FolderSuggester(Suggester):
    """Completes the last part of a path with a subfolder's name (Tab or → takes it)."""

    def __init__(self) -> None:
        # Folders come and go: never cached. Case-sensitive: so are most file systems.
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return await asyncio.to_thread(complete_folder, value)


class SaveTo(ModalScreen[Path | None]):
    """The folder chosen (absolute), or None when cancelled."""

    CSS_PATH = stylesheet("jobs")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="save_to.cancel", key_display="Esc"),
        Binding("tab", "complete", "Complete the folder", id="save_to.complete", show=False),
    ]

    def __init__(self, name: str, folder: Path) -> None:
        """`name`: the file being saved (shown, not editable); `folder`: where the field starts."""
        super().__init__()
        self.file_name = name
        self.start = folder

    def compose(self) -> ComposeResult:
        with Vertical(classes="job-dialog", id="save-to") as box:
            box.border_title = f"Save {self.file_name} to…"
            box.border_subtitle = "Enter saves · Tab completes · Esc cancels"
            yield Static(
                "Folder, for this file only (the download folder setting stays):",
                classes="job-dialog-hint",
            )
            yield Input(
                str(self.start),
                id="save-to-folder",
                suggester=FolderSuggester(),
                select_on_focus=False,
            )
            yield Static("", id="save-to-reason")

    @property
    def field(self) -> Input:
        return self.query_one("#save-to-folder", Input)

    def on_mount(self) -> None:
        self.field.focus()
        self._check(self.field.value)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._check(event.value)

    @work(exclusive=True, group="save-to-check")
    async def _check(self, typed: str) -> None:
        check = await asyncio.to_thread(check_folder, typed)
        if self.is_attached and self.field.value == typed:
            self._show(check)

    def _show(self, check: FolderCheck) -> None:
        """The line under the field: where the file will go, or why it cannot."""
        reason = self.query_one("#save-to-reason", Static)
        if check.folder is None:
            reason.update(f"✗ {check.problem}")
        else:
            new = " (a new folder, created on saving)" if check.new else ""
            reason.update(f"✓ saves {self.file_name} in {check.folder}{new}")
        reason.set_class(check.folder is None, "-invalid")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._save(event.value)

    @work(exclusive=True, group="save-to-save")
    async def _save(self, typed: str) -> None:
        # Checked again: the folder may have changed since the line under the field was drawn.
        check = await asyncio.to_thread(check_folder, typed)
        if not self.is_attached:
            return
        if check.folder is None:
            self._show(check)
        else:
            self.dismiss(check.folder)

    def action_complete(self) -> None:
        """Take the suggested completion (as → at the end of the field does)."""
        field = self.field
        if field.cursor_at_end:
            field.action_cursor_right()
