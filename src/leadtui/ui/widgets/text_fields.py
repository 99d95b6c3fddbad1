"""One-line text fields as every form uses them."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.widgets import Input

from leadtui.ui.model.search_draft import split_values


class TextField(Input):
    """An `Input` that puts the cursor after its text on focus (Textual's default selects it
    all, and the first key typed replaced it), and refuses a paste of several lines, saying
    why, rather than keep its first line silently."""

    def __init__(
        self, value: str | None = None, *, what: str = "This field", **options: Any
    ) -> None:
        """`what` names the field in what the user is told ("name", "categories")."""
        options.setdefault("select_on_focus", False)
        super().__init__(value, **options)
        self.what = what

    def on_focus(self, event: events.Focus) -> None:
        if not event.from_app_focus:
            self.cursor_position = len(self.value)

    def on_paste(self, event: events.Paste) -> None:
        lines = [line for line in event.text.splitlines() if line.strip()]
        if len(lines) < 2:
            return  # one line: Input pastes it
        event.stop()
        event.prevent_default()  # not Input's paste, which keeps the first line silently
        self.take_lines(lines)

    def take_lines(self, lines: list[str]) -> None:
        """A paste of several lines: refused, with the reason."""
        self.notify(
            f"Not pasted: {self.what} is one line, and the clipboard holds {len(lines)} "
            "lines. Copy a single line.",
            title="Paste refused",
            severity="warning",
            timeout=6,
        )


class ListField(TextField):
    """A list as comma-separated text; a pasted column (one value a line) becomes commas."""

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # every line is a value, a single one too
        self.take_lines(event.text.splitlines())

    def take_lines(self, lines: list[str]) -> None:
        values = split_values("\n".join(lines))
        if not values:
            return
        before = self.value[: self.cursor_position].rstrip()
        joiner = ", " if before and not before.endswith(",") else ""
        self.insert_text_at_cursor(joiner + ", ".join(values))


class WholeNumberField(TextField):
    """Digits only. Anything else typed or pasted is refused whole (never its digits alone:
    "1e3" is not 13). What was refused stays in `refused` until the user deletes something,
    so the digits typed after it ("1.5" reads 15) are never taken for what was meant; the
    form shows the reason and takes no value meanwhile. `Refused` tells the form at once."""

    class Refused(Message):
        def __init__(self, field: WholeNumberField) -> None:
            super().__init__()
            self.field = field

    def __init__(self, value: str | None = None, **options: Any) -> None:
        super().__init__(value, **options)
        self.refused: str | None = None

    @property
    def reason(self) -> str | None:
        """Why the field holds no usable number now, or None."""
        if self.refused is None:
            return None
        return (
            f"digits only: {self.refused!r} was not taken, so this is not the number typed; "
            "delete to fix it"
        )

    def replace(self, text: str, start: int, end: int) -> None:
        if text and not (text.isascii() and text.isdigit()):
            self.refused = (self.refused or "") + text
            self.post_message(self.Refused(self))
            return
        if not text:
            self.refused = None  # a deletion: the user is fixing what they typed
        super().replace(text, start, end)
