"""The fields of one SearchItem, each with its count against the limit or the reason it is wrong."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from leadtui.ui.model.search_draft import ITEM_FIELDS, LIST_FIELDS, ItemDraft
from leadtui.ui.widgets.text_fields import ListField, TextField

_PLACEHOLDERS = {
    "name": "what to search for, e.g. Plumber",
    "queryNames": "comma-separated; pasting a list fills it",
    "localisationType": "optional, e.g. city",
    "localisationIdentifiers": "comma-separated; pasting a list fills it",
}


class SearchItemEditor(Vertical):
    """Edits one ItemDraft in place; posts Changed after every keystroke."""

    class Changed(Message):
        """A field of the item changed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.item: ItemDraft | None = None
        self._loading = False

    def compose(self) -> ComposeResult:
        for member, _limit in ITEM_FIELDS:
            yield Static(member, id=f"label-{member}", classes="field-label")
            cls = ListField if member in LIST_FIELDS else TextField
            yield cls(
                what=member,
                placeholder=_PLACEHOLDERS[member],
                id=f"field-{member}",
                classes="field",
            )

    def edit(self, item: ItemDraft | None) -> None:
        """Show `item` (None: nothing to edit)."""
        self.item = item
        self._loading = True
        for member, _limit in ITEM_FIELDS:
            box = self.query_one(f"#field-{member}", Input)
            box.value = item.value(member) if item else ""
            box.disabled = item is None
        self._loading = False

    def focus_name(self) -> None:
        """Edit the name, the cursor after its last character."""
        box = self.query_one("#field-name", Input)
        box.focus()
        box.cursor_position = len(box.value)

    def show_reasons(self, reasons: dict[str, str]) -> None:
        """Label each field with its count against its limit, or why it is wrong."""
        for member, limit in ITEM_FIELDS:
            label = self.query_one(f"#label-{member}", Static)
            count = self.item.count(member) if self.item else 0
            reason = reasons.get(member)
            if reason:
                label.update(f"✗ {reason}")
            elif limit is not None:
                unit = " characters" if member not in LIST_FIELDS else ""
                label.update(f"{member}  {count}/{limit}{unit}")
            else:
                label.update(f"{member}  (optional)")
            label.set_class(bool(reason), "-invalid")

    @on(Input.Changed, ".field")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._loading or self.item is None or event.input.id is None:
            return
        setattr(self.item, event.input.id.removeprefix("field-"), event.value)
        self.post_message(self.Changed())
