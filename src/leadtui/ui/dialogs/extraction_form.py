"""ExtractionForm: an ExtractionRequest to save as a draft, or to create and launch at once.

Fields are validated by the api models (urls as URIs, serp_config as a JSON object) before the
dialog closes, so nothing invalid reaches the server or the spend journal. A launch (from the
form or of a saved draft) follows one rule, the spec's: `launch_problems`. Esc with unsaved
changes asks before discarding them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from leadtui.api.models import Extraction, ExtractionDraft, ExtractionRequest
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.search_draft import split_values
from leadtui.ui.widgets.text_fields import ListField

# Each list field, with the example its empty field shows.
LIST_FIELDS = {
    "categories": "bakery, florist",
    "countries": "FR, BE",
    "localisations": "Paris, Lyon",
    "enrichment_sources": "website, social",
}


@dataclass(frozen=True)
class ExtractionFormResult:
    body: dict[str, Any]
    """A valid ExtractionDraft body (launch=False) or ExtractionRequest body (launch=True)."""
    launch: bool


def _problems(error: ValidationError) -> list[str]:
    lines = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "form"
        what = "missing" if item["type"] == "missing" else item["msg"]
        lines.append(f"{where}: {what}")
    return lines


def launch_problems(request: Mapping[str, Any]) -> list[str]:
    """What keeps `request` from being launched, by the spec's rule: categories, countries,
    localisations and enrichment_sources are required lists (they may be empty); urls are
    URIs; serp_config is an object. Empty when it can be launched. Other fields (a record's
    status, ids...) and null values (a record's way of saying "not set") are left aside."""
    fields = ExtractionRequest.model_fields
    body = {name: value for name, value in request.items() if name in fields and value is not None}
    try:
        ExtractionRequest.model_validate(body)
    except ValidationError as error:
        return _problems(error)
    return []


class ExtractionForm(ModalScreen[ExtractionFormResult | None]):
    """New extraction (save a draft, or create and launch) or edit an existing draft."""

    CSS_PATH = stylesheet("jobs")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="extraction_form.cancel"),
        Binding("ctrl+s", "save", "Save draft", id="extraction_form.save"),
        Binding("ctrl+l", "launch", "Create and launch", id="extraction_form.launch"),
    ]

    def __init__(
        self,
        draft: Extraction | None = None,
        *,
        launches_left: Callable[[], int | None] | None = None,
        typed: Mapping[str, Any] | None = None,
        why: str = "",
    ) -> None:
        """`launches_left` reads the account's launches left (None: not known) when the user
        asks to launch: with none left the form stays open, with what was typed. `typed`
        (a body this form made) fills a new extraction's form again, `why` says why."""
        super().__init__()
        self.draft = draft
        self.launches_left = launches_left
        self.typed = typed
        self.why = why
        self._as_opened: list[str] = []

    def _initial(self, name: str) -> Any:
        if self.typed is not None:
            return self.typed.get(name)
        return self.draft.extra(name) if self.draft is not None else None

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="job-dialog", id="extraction-form") as box:
            box.border_title = (
                f"Edit draft {self.draft.extractionId}" if self.draft else "New extraction"
            )
            box.border_subtitle = "lists: comma-separated; may be empty"
            for name, example in LIST_FIELDS.items():
                with Horizontal(classes="form-row"):
                    yield Label(name.replace("_", " "))
                    yield ListField(
                        ", ".join(self._initial(name) or []),
                        what=name,
                        placeholder=example,
                        id=f"x-{name}",
                        compact=True,
                    )
            yield Label("urls (one per line)", classes="form-label")
            yield TextArea("\n".join(self._initial("urls") or []), id="x-urls", compact=True)
            yield Label("serp_config (a JSON object, optional)", classes="form-label")
            serp = self._initial("serp_config")
            yield TextArea(json.dumps(serp) if serp else "", id="x-serp_config", compact=True)
            yield Static(self.why, id="x-errors", markup=False)
            with Horizontal(classes="job-dialog-buttons"):
                yield Button("Cancel", id="x-cancel", compact=True)
                yield Button("Save draft (ctrl+s)", id="x-save", variant="primary", compact=True)
                if self.draft is None:
                    yield Button(
                        "Create and launch (ctrl+l)", id="x-launch", variant="warning", compact=True
                    )

    def on_mount(self) -> None:
        self.query_one("#x-categories", Input).focus()
        self._as_opened = self._typed()
        if self.typed is not None:  # filled again from what was typed: nothing of it is saved
            self._as_opened = [""] * len(self._as_opened)

    def _typed(self) -> list[str]:
        """Every field as typed: what "unsaved changes" compares."""
        return [
            *(self.query_one(f"#x-{name}", Input).value for name in LIST_FIELDS),
            self.query_one("#x-urls", TextArea).text,
            self.query_one("#x-serp_config", TextArea).text,
        ]

    def collect(self) -> dict[str, Any]:
        """The form as a body: empty optional fields are left out. Raises ValueError."""
        # Every list is sent, empty ones too: the spec allows empty lists, so a draft saved
        # here can be launched, and what is launched is what the form shows.
        body: dict[str, Any] = {
            name: split_values(self.query_one(f"#x-{name}", Input).value) for name in LIST_FIELDS
        }
        urls = split_values(self.query_one("#x-urls", TextArea).text)
        if urls:
            body["urls"] = urls
        serp_text = self.query_one("#x-serp_config", TextArea).text.strip()
        if serp_text:
            try:
                serp = json.loads(serp_text)
            except json.JSONDecodeError as error:
                raise ValueError(
                    f"✗ serp_config: not JSON ({error.msg}, col {error.colno})"
                ) from None
            if not isinstance(serp, dict):
                raise ValueError("✗ serp_config: must be a JSON object ({…}), not a list or value")
            body["serp_config"] = serp
        return body

    def _finish(self, launch: bool) -> None:
        errors = self.query_one("#x-errors", Static)
        try:
            body = self.collect()
            if launch:
                checked = ExtractionRequest.model_validate(body).to_body()
            else:
                checked = ExtractionDraft.model_validate(body).to_body()
        except ValidationError as error:
            errors.update("\n".join(f"✗ {line}" for line in _problems(error)[:4]))
            return
        except ValueError as error:
            errors.update(str(error))
            return
        if launch and self.launches_left is not None and self.launches_left() == 0:
            errors.update(
                "✗ No launches left: the account's extraction launches are used up, so this "
                "cannot be launched now. ctrl+s saves it as a draft to launch later. Nothing "
                "was sent."
            )
            return
        self.dismiss(ExtractionFormResult(checked, launch))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "x-cancel":
            self.action_cancel()
        else:
            self._finish(event.button.id == "x-launch")

    def action_save(self) -> None:
        self._finish(False)

    def action_launch(self) -> None:
        if self.draft is None:
            self._finish(True)

    def action_cancel(self) -> None:
        if self._typed() == self._as_opened:
            self.dismiss(None)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.dismiss(None)

        what = f"draft {self.draft.extractionId}" if self.draft else "the new extraction"
        self.app.push_screen(
            ConfirmText(
                "Discard changes?",
                f"The changes to {what} are not saved. Discard them?",
                "Discard",
            ),
            answered,
        )
