"""The one-line header: app and account name, the screens with their keys, the credits badge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from leadtui.ui.frame.handle import AppHandle, app_handle

if TYPE_CHECKING:
    from leadtui.api.models import Identity

# Below this many credits the badge is drawn as a warning (and says "low").
LOW_CREDITS = 50
# Each cell of the header is padded by one on either side.
PADDING = 2


def credits_text(credits: int | None, *, short: bool = False) -> str:
    """The badge's words (`short` drops the word "credits" where the header is tight); the long
    form is also what the start-up bench waits for on screen."""
    unit = "" if short else " credits"
    if credits is None:
        return f"◆ —{unit}"
    low = " (low)" if credits < LOW_CREDITS else ""
    return f"◆ {credits:,}{unit}{low}"


def approvals_text(waiting: int, *, short: bool = False) -> str:
    """`1 approval waiting`, `2 approvals waiting`; `1 to approve` where the header is tight."""
    if short:
        return f"{waiting} to approve"
    return f"{waiting} approval{'s' if waiting != 1 else ''} waiting"


class AppHeader(Horizontal):
    """Composed by every `LeadScreen`; follows the app's `identity` and `credits` reactives."""

    DEFAULT_CSS = """
    AppHeader {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    AppHeader #brand { width: 1fr; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    AppHeader #tabs { width: auto; }
    AppHeader #read-only { width: auto; padding: 0 1; background: $warning-muted; }
    AppHeader #approvals { width: auto; padding: 0 1; background: $warning; color: $text; }
    AppHeader #credits { width: auto; padding: 0 1; background: $primary-muted; text-style: bold; }
    AppHeader #credits.-low { background: $warning-muted; }
    AppHeader #credits.-unknown { background: $panel; text-style: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._tabs = Content("")
        self._short_tabs = Content("")

    def compose(self) -> ComposeResult:
        yield Static(id="brand")
        yield Static(id="tabs")
        # Its own cell, so a long account name cannot push it off at 80 columns.
        yield Static("read-only", id="read-only")
        yield Static(id="approvals")
        yield Static(credits_text(None), id="credits", classes="-unknown")

    @property
    def lead_app(self) -> AppHandle:
        return app_handle(self)

    def on_mount(self) -> None:
        self.watch(self.app, "identity", self._identity_changed)
        self.watch(self.app, "credits", self._credits_changed)
        self.watch(self.app, "approvals_waiting", self._approvals_changed)
        self._tabs = self._tab_line(short=False)
        self._short_tabs = self._tab_line(short=True)
        self.draw_flags()

    def on_resize(self) -> None:
        self._fit()

    def draw_flags(self) -> None:
        """The read-only cell; again once a launch has read the whole settings."""
        self.query_one("#read-only").display = self.lead_app.read_only
        self._fit()

    def _fit(self) -> None:
        """The badges in their long words when the line has room, else shorter: the credits and
        the approvals waiting stay whole at 80 columns; below, the other screens' tabs show
        their keys alone (60 columns); the brand takes what is left."""
        width = self.size.width
        credits, waiting = self.lead_app.credits, self.lead_app.approvals_waiting
        flags = len("read-only") + PADDING if self.lead_app.read_only else 0
        for shortened in range(4):  # the approvals first, then the tabs, then the credits
            short_approvals, short_tabs, short_credits = shortened > 0, shortened > 1, shortened > 2
            tabs = self._short_tabs if short_tabs else self._tabs
            needed = flags + tabs.cell_length
            needed += cell_len(credits_text(credits, short=short_credits)) + PADDING
            if waiting:
                needed += cell_len(approvals_text(waiting, short=short_approvals)) + PADDING
            if not width or needed <= width:
                break
        self._show("#tabs", tabs)
        self._show("#credits", credits_text(credits, short=short_credits))
        self._show(
            "#approvals",
            Content.from_markup(
                f"[@click=app.approvals]{approvals_text(waiting, short=short_approvals)}[/]"
            )
            if waiting
            else "",
        )

    def _show(self, cell: str, content: str | Content) -> None:
        # Not the same words again: each update lays the screen out anew, and the first resize
        # (which fits the same words) then held the launch's load back by a frame.
        shown = self.query_one(cell, Static)
        if shown.content != content:
            shown.update(content)

    def _identity_changed(self, identity: Identity | None) -> None:
        name = identity.account.name if identity and identity.account else None
        # The account name comes first: at 80 columns there are ~17 cells for the brand.
        brand = name or "leadtui"
        if self.lead_app.demo:
            brand += " · demo"
        self.query_one("#brand", Static).update(brand)

    def _approvals_changed(self, waiting: int) -> None:
        self.query_one("#approvals", Static).display = waiting > 0
        self._fit()

    def _credits_changed(self, credits: int | None) -> None:
        self._fit()
        badge = self.query_one("#credits", Static)
        badge.set_class(credits is None, "-unknown")
        badge.set_class(credits is not None and credits < LOW_CREDITS, "-low")

    def _tab_line(self, *, short: bool) -> Content:
        """Every screen with its key; `short`: the other screens by their key alone."""
        current = getattr(self.screen, "MODE", "")
        markup = []
        for mode, key, label in self.lead_app.nav_entries():
            if mode == current:
                # The current screen is drawn reversed: still readable under NO_COLOR.
                markup.append(f"[reverse] [b]{escape(key)}[/b] {label} [/]")
            else:
                tab = f" [b]{escape(key)}[/b] " if short else f" [b]{escape(key)}[/b] {label} "
                markup.append(f"[@click=app.open('{mode}')]{tab}[/]")
        return Content.from_markup("".join(markup))
