"""New search: three lists of SearchItems and a result_filter, checked as you type; ctrl+s creates.

The draft lives on this screen, and app modes keep their screens: leaving and coming back
finds the form as it was left.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from leadtui.api.contract import ErrorCode, Scope
from leadtui.api.errors import ApiError, LeadError
from leadtui.api.models import SEARCH_SECTION_MAX, Search, SearchRequest
from leadtui.spend.gate import settles_spend
from leadtui.ui.frame.main_screens import NEW_SEARCH
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.errors import ErrorReport, describe, retold
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.model.search_draft import (
    FILTER,
    SECTIONS,
    ItemDraft,
    SearchDraft,
    server_field_errors,
)
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.searches import PAGE_SIZE
from leadtui.ui.widgets.search_item_editor import SearchItemEditor

# Characters of an item's line in the outline (its width less border and scrollbar).
OUTLINE_TEXT_WIDTH = 30
# The option ids of the outline: "activities" (a section), "activities.2" (an item), FILTER.
# After a lost answer to a create, a search with the same request created this long before the
# attempt (by this machine's clock) still counts as that attempt's: clocks differ a little.
CLOCK_SKEW_SECONDS = 300
SENDING = "Sending… creating and counting the search; ctrl+s is off until the server answers"


def same_request_search(
    searches: list[Search], request: SearchRequest, since: float
) -> Search | None:
    """The newest search made from `request` no earlier than `since` (epoch seconds), among
    `searches` (newest first, as the server lists them); None when there is none."""
    body = request.to_body()
    for search in searches:
        if search.extra("request") != body or search.created_at is None:
            continue
        try:
            created = datetime.fromisoformat(search.created_at).timestamp()
        except ValueError:
            continue
        if created >= since - CLOCK_SKEW_SECONDS:
            return search
    return None


class NewSearchScreen(LeadScreen):
    CSS_PATH = stylesheet("search_builder")

    MODE = NEW_SEARCH.mode
    LABEL = NEW_SEARCH.label
    REQUIRED_SCOPES = ((Scope.SEARCHES_WRITE, "create searches"),)
    AUTO_FOCUS = "#builder-outline"
    # No ACTION_SCOPES: ctrl+s is also greyed out while the form is invalid, and the frame
    # would then explain that key as a missing scope. The scope is checked in check_action.

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "Create", id="new_search.create", priority=True),
        Binding("plus,insert", "add", "Add item", id="new_search.add", key_display="+"),
        Binding("x,delete", "remove", "Remove", id="new_search.remove", key_display="x"),
        Binding("shift+up", "move(-1)", "Move up", id="new_search.move_up", key_display="⇧↑"),
        Binding("shift+down", "move(1)", "Move down", id="new_search.move_down", show=False),
        Binding("escape", "outline", "Back to the outline", id="new_search.outline", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.draft = SearchDraft()
        self.selected = SECTIONS[0]  # an option id
        self.reasons: dict[str, str] = self.draft.problems()
        self.server_reasons: dict[str, str] = {}
        self.creating = False
        # The last create's answer was lost: look the search up before creating it again.
        self.unknown_since: float | None = None
        self._shown_ids: list[str | None] = []
        self._shown_prompts: list[str] = []
        self._binding_state: tuple[bool, bool, str] | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="builder-main"):
            yield OptionList(id="builder-outline")
            with Vertical(id="builder-editor"):
                yield Static("", id="builder-hint")
                yield SearchItemEditor(id="builder-item")
                yield Static(FILTER, id="label-result_filter", classes="field-label")
                yield TextArea(id="builder-filter", soft_wrap=True, show_line_numbers=False)
        yield Static("", id="builder-status")

    def on_mount(self) -> None:
        self._draw()
        self.query_one("#builder-outline").focus()

    def palette_commands(self) -> list[PaletteCommand]:
        return [PaletteCommand("new search: create", "Create and count it", self.action_create)]

    # --- outline ------------------------------------------------------------------------

    def _options(self) -> list[Option]:
        options = []
        for section in SECTIONS:
            items = self.draft.section(section)
            bad = section in self.reasons or section in self.server_reasons
            mark = "✗" if bad or any(self._item_bad(section, n) for n in range(len(items))) else "✓"
            title = f"{mark} {section.capitalize()} {len(items)}/{SEARCH_SECTION_MAX}"
            options.append(Option(title, id=section))
            for n, item in enumerate(items):
                mark = "✗" if self._item_bad(section, n) else " "
                # One line per item however long its name: the outline is for finding items.
                line = Text(f"  {mark} {n + 1}. {item.name.strip() or '(no name)'}")
                line.truncate(OUTLINE_TEXT_WIDTH, overflow="ellipsis")
                options.append(Option(line, id=f"{section}.{n}"))
        bad = FILTER in self.reasons or FILTER in self.server_reasons
        options.append(Option(f"{'✗' if bad else '✓'} result_filter (JSON)", id=FILTER))
        return options

    def _item_bad(self, section: str, n: int) -> bool:
        prefix = f"{section}.{n}."
        return any(p.startswith(prefix) for p in (*self.reasons, *self.server_reasons))

    def _draw(self) -> None:
        self.reasons = self.draft.problems()
        outline = self.query_one("#builder-outline", OptionList)
        options = self._options()
        ids = [o.id for o in options]
        if ids == self._shown_ids:
            # Typing changes a prompt or two: rebuilding the whole list on each key is slow.
            for index, option in enumerate(options):
                if str(option.prompt) != self._shown_prompts[index]:
                    outline.replace_option_prompt_at_index(index, option.prompt)
        else:
            outline.clear_options()
            outline.add_options(options)
        self._shown_ids = ids
        self._shown_prompts = [str(o.prompt) for o in options]
        if self.selected not in ids:
            self.selected = SECTIONS[0]
        if outline.highlighted != ids.index(self.selected):
            outline.highlighted = ids.index(self.selected)
        self._draw_editor()
        self._draw_status()
        state = (not self.reasons, self.creating, self.selected)
        if state != self._binding_state:  # the footer recomposes: not on every key
            self._binding_state = state
            self.refresh_bindings()

    def _selection(self) -> tuple[str, int | None]:
        """(section or FILTER, item index or None)."""
        name, _, n = self.selected.partition(".")
        return name, int(n) if n else None

    def _draw_editor(self) -> None:
        section, n = self._selection()
        editor = self.query_one(SearchItemEditor)
        text_area = self.query_one("#builder-filter", TextArea)
        is_filter = section == FILTER
        editor.display = n is not None
        text_area.display = is_filter
        self.query_one("#label-result_filter").display = is_filter
        hint = self.query_one("#builder-hint", Static)
        if is_filter:
            hint.update("A JSON object sent as result_filter; leave empty for none.")
            reason = self.server_reasons.get(FILTER) or self.reasons.get(FILTER)
            label = self.query_one("#label-result_filter", Static)
            label.update(f"✗ {reason}" if reason else "result_filter  ✓ (a JSON object or empty)")
            label.set_class(bool(reason), "-invalid")
        elif n is None:
            count = len(self.draft.section(section))
            reason = self.server_reasons.get(section) or self.reasons.get(section)
            hint.update(
                (f"✗ {reason}\n" if reason else "")
                + f"{section}: {count}/{SEARCH_SECTION_MAX} items. Press + to add one; Enter on "
                "an item edits it, x removes it, ⇧↑/⇧↓ move it."
            )
        else:
            item = self.draft.section(section)[n]
            hint.update(f"{section} item {n + 1} — Esc back to the outline")
            if editor.item is not item:
                editor.edit(item)
            prefix = f"{section}.{n}."
            reasons = {
                path.removeprefix(prefix): text
                for source in (self.reasons, self.server_reasons)
                for path, text in source.items()
                if path.startswith(prefix)
            }
            editor.show_reasons(reasons)

    def _draw_status(self) -> None:
        status = self.query_one("#builder-status", Static)
        problems = list({**self.reasons, **self.server_reasons}.values())
        if self.creating:
            status.update(SENDING)
        elif problems:
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            # Wraps rather than cuts: the reason is the point of this line.
            status.update(f"✗ {problems[0]}{more}\n  ctrl+s is off until the form is valid")
        else:
            status.update("✓ valid — ctrl+s creates the search and counts its results")
        status.set_class(bool(problems), "-invalid")

    @on(OptionList.OptionHighlighted, "#builder-outline")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.selected:
            self.selected = event.option.id
            self._draw_editor()
            self.refresh_bindings()

    @on(OptionList.OptionSelected, "#builder-outline")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        section, n = self._selection()
        if section == FILTER:
            self.query_one("#builder-filter").focus()
        elif n is None:
            self.action_add()
        else:
            self.query_one(SearchItemEditor).focus_name()

    # --- editing ------------------------------------------------------------------------

    @on(SearchItemEditor.Changed)
    def _item_changed(self) -> None:
        section, n = self._selection()
        self.server_reasons = {
            p: t for p, t in self.server_reasons.items() if not p.startswith(f"{section}.{n}.")
        }
        self._draw()

    @on(TextArea.Changed, "#builder-filter")
    def _filter_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.text != self.draft.result_filter:
            self.draft.result_filter = event.text_area.text
            self.server_reasons.pop(FILTER, None)
            self._draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (gate := super().check_action(action, parameters)) is not True:
            return gate
        section, n = self._selection()
        if action == "create":
            writable = self.lead_app.has_scope(Scope.SEARCHES_WRITE)
            return None if self.reasons or self.creating or not writable else True
        if action == "add":
            return section != FILTER  # at the limit it says why it adds nothing
        if action in ("remove", "move"):
            return True if n is not None else None
        return True

    def action_add(self) -> None:
        section, _ = self._selection()
        if section == FILTER:
            return
        items = self.draft.section(section)
        if len(items) >= SEARCH_SECTION_MAX:
            self.notify(
                f"{section}: {len(items)}/{SEARCH_SECTION_MAX} items, the most a search takes. "
                "Remove one (x) to add another.",
                title="Nothing added",
                severity="warning",
                timeout=6,
            )
            return
        items.append(ItemDraft())
        self.selected = f"{section}.{len(items) - 1}"
        self.server_reasons.pop(section, None)
        self._draw()
        self.query_one(SearchItemEditor).focus_name()

    def on_paste(self, event: events.Paste) -> None:
        """A paste no field took (the outline has the focus): it goes to the field the
        selection names, as if pasted there (a name refuses several lines, saying why), and
        is never dropped without a word."""
        event.stop()
        section, n = self._selection()
        if section == FILTER:
            field: Widget = self.query_one("#builder-filter", TextArea)
        elif n is not None:
            field = self.query_one(SearchItemEditor).query_one("#field-name")
        else:
            self.notify(
                f"Not pasted: {section} is a list. Select one of its items (or add one with "
                "+), then paste into its name.",
                title="Paste refused",
                severity="warning",
                timeout=6,
            )
            return
        field.focus()
        field.post_message(events.Paste(event.text))

    def action_remove(self) -> None:
        section, n = self._selection()
        if n is None:
            return
        items = self.draft.section(section)
        del items[n]
        self.server_reasons = {}  # indexes moved: the server's words no longer line up
        self.selected = f"{section}.{min(n, len(items) - 1)}" if items else section
        self._draw()

    def action_move(self, delta: int) -> None:
        section, n = self._selection()
        if n is None:
            return
        items = self.draft.section(section)
        to = n + delta
        if 0 <= to < len(items):
            items[n], items[to] = items[to], items[n]
            self.server_reasons = {}
            self.selected = f"{section}.{to}"
            self._draw()

    def action_outline(self) -> None:
        self.query_one("#builder-outline").focus()

    # --- create -------------------------------------------------------------------------

    def action_create(self) -> None:
        if self.reasons or self.creating:
            return
        self.creating = True  # shown at once, before the worker's first step
        self._draw()
        self._create(self.draft.request())

    # Not exclusive: nothing may cut a create whose answer is awaited.
    @work(group="new-search-create")
    async def _create(self, request: SearchRequest) -> None:
        try:
            search = await self._find_or_create(request)
        finally:
            self.creating = False
            self._draw()
        if search is not None:
            self.clear_error()
            await self.lead_app.open_search(search)

    async def _find_or_create(self, request: SearchRequest) -> Search | None:
        if self.unknown_since is not None:
            found = await self._look_up(request, self.unknown_since)
            if found is not None or self.unknown_since is not None:
                return found  # found it, or still cannot tell: never create a second one
        started = self.lead_app.clock()
        try:
            search = await self.client.searches.create(request)
        except ApiError as error:
            if settles_spend(error):
                if error.code == ErrorCode.INVALID_REQUEST:
                    self.server_reasons = server_field_errors(error.message)
                self.show_error(error)
                return None
            return await self._lost_answer(error, request, started)
        except LeadError as error:
            return await self._lost_answer(error, request, started)
        self.notify(
            f"{search.searchId}: {search.result_count or 0:,} results found. Nothing was spent.",
            title="Search created",
            timeout=6,
        )
        return search

    async def _lost_answer(
        self, error: LeadError, request: SearchRequest, started: float
    ) -> Search | None:
        """No answer, or a 5xx: the server may have created the search. Say the outcome is
        unknown and look for it before anything is created again."""
        self.unknown_since = started
        base = describe(error)
        self.show_error(
            retold(
                base,
                f"{base.title}: outcome unknown",
                f"{base.text} The search may have been created anyway: looking for it among "
                "your newest searches before offering to create it again.",
            )
        )
        return await self._look_up(request, started)

    async def _look_up(self, request: SearchRequest, since: float) -> Search | None:
        try:
            page = await self.client.searches.list(None, PAGE_SIZE)
        except LeadError as error:
            base = describe(error)
            self.show_error(
                retold(
                    base,
                    "Outcome still unknown",
                    f"Could not look for the search ({base.text}). ctrl+s looks again before "
                    "creating anything; Searches (2) lists what the server has.",
                )
            )
            return None
        self.unknown_since = None
        found = same_request_search(page.items, request, since)
        if found is None:
            self.show_error(
                ErrorReport(
                    "Not created",
                    "The server has no new search with this request: the create did not "
                    "happen. ctrl+s creates it.",
                )
            )
            return None
        self.notify(
            f"The server did create it: {found.searchId}, {found.result_count or 0:,} results. "
            "Opening it; nothing was created twice.",
            title="Search found",
            timeout=8,
        )
        return found
