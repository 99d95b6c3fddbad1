"""The one-line header: app and account name, the screens with their keys, the credits badge."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

from leadtui.ui.frame.handle import AppHandle, app_handle

if TYPE_CHECKING:
    from textual.events import Click

    from leadtui.api.models import Identity

_BOLD = Style(bold=True)
_REVERSE = Style(reverse=True)

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


def credits_look(credits: int | None) -> tuple[str, str]:
    """The badge's (background, text style) in theme variables."""
    if credits is None:
        return "", ""  # the header's own colours: nothing to say yet
    return f"on {'$warning-muted' if credits < LOW_CREDITS else '$primary-muted'}", "bold"


class AppHeader(Widget):
    """Composed by every `LeadScreen`; follows the app's `identity` and `credits` reactives.

    One widget drawing one line, its cells laid out here (the brand takes what the others
    leave): as a row of five widgets it cost the first frame ~5 ms (bench/bench_startup.py).
    """

    # The badges are styles of spans (theme variables), not component classes: Textual styles a
    # component class as a node of its own, twice before the first frame (~0.3 ms each). The
    # approvals' text is `$text` on the badge, which only a component class resolves.
    COMPONENT_CLASSES: ClassVar[set[str]] = {"app-header--approvals"}
    DEFAULT_CSS = """
    AppHeader {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    AppHeader > .app-header--approvals {
        background: $warning;
        color: $text;
        text-style: underline;  /* a click opens Approvals */
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._brand = "leadtui"
        self._tabs = Content("")
        self._short_tabs = Content("")
        # Where the approvals cell was drawn (from, to): a click there opens Approvals.
        self._approvals_at: tuple[int, int] | None = None

    @property
    def lead_app(self) -> AppHandle:
        return app_handle(self)

    def on_mount(self) -> None:
        self.watch(self.app, "identity", self._identity_changed)
        self.watch(self.app, "credits", self.redraw, init=False)
        self.watch(self.app, "approvals_waiting", self.redraw, init=False)
        self._tabs = self._tab_line(short=False)
        self._short_tabs = self._tab_line(short=True)

    def redraw(self) -> None:
        """The line again: the credits or the approvals waiting moved, or a launch has read the
        whole settings (the read-only cell)."""
        self.refresh()

    def line(self, width: int) -> Content:
        """The header's words at `width` cells: the badges in their long words when the line
        has room, else shorter. The credits and the approvals waiting stay whole at 80 columns;
        below, the other screens' tabs show their keys alone (60 columns); the brand takes what
        is left, cut with an ellipsis."""
        credits, waiting = self.lead_app.credits, self.lead_app.approvals_waiting
        read_only = self.lead_app.read_only
        flags = len("read-only") + PADDING if read_only else 0
        for shortened in range(4):  # the approvals first, then the tabs, then the credits
            short_approvals, short_tabs, short_credits = shortened > 0, shortened > 1, shortened > 2
            tabs = self._short_tabs if short_tabs else self._tabs
            needed = flags + tabs.cell_length
            needed += cell_len(credits_text(credits, short=short_credits)) + PADDING
            if waiting:
                needed += cell_len(approvals_text(waiting, short=short_approvals)) + PADDING
            if not width or needed <= width:
                break
        flag = self._cell("read-only", "on $warning-muted") if read_only else Content("")
        approvals = Content("")
        if waiting:
            style = self.get_visual_style("app-header--approvals")
            words = approvals_text(waiting, short=short_approvals)
            approvals = self._cell(words, Style(background=style.background), style)
        badge = self._cell(credits_text(credits, short=short_credits), *credits_look(credits))
        before = tabs + flag
        room = width - before.cell_length - approvals.cell_length - badge.cell_length - PADDING
        brand = Content(self._brand).truncate(max(room, 0), ellipsis=True, pad=True)
        start = PADDING + brand.cell_length + before.cell_length
        self._approvals_at = (start, start + approvals.cell_length) if waiting else None
        return Content.assemble(" ", brand, " ", before, approvals, badge).truncate(width)

    @staticmethod
    def _cell(words: str, background: str | Style, text: str | Style = "") -> Content:
        """`words` on `background`, padded by a cell either side (the padding in the background
        alone: not underlined)."""
        return Content.assemble(
            (" ", background),
            Content.styled(words, text).stylize_before(background),
            (" ", background),
        )

    def render(self) -> Content:
        return self.line(self.size.width)

    async def on_click(self, event: Click) -> None:
        # Not a link (`@click`): Textual draws a link in the header's link colour, which on the
        # warning badge was not the badge's own.
        at = self._approvals_at
        if at is not None and at[0] <= event.x < at[1]:
            await self.app.run_action("app.approvals")

    def _identity_changed(self, identity: Identity | None) -> None:
        name = identity.account.name if identity and identity.account else None
        # The account name comes first: at 80 columns there are ~17 cells for the brand.
        self._brand = name or "leadtui"
        if self.lead_app.demo:
            self._brand += " · demo"
        self.refresh()

    def _tab_line(self, *, short: bool) -> Content:
        """Every screen with its key; `short`: the other screens by their key alone. Built
        from spans, not markup: parsing it was ~0.5 ms of the first frame, twice."""
        current = getattr(self.screen, "MODE", "")
        tabs = []
        for mode, key, label in self.lead_app.nav_entries():
            if mode == current:
                # The current screen is drawn reversed: still readable under NO_COLOR.
                tab = Content.assemble(" ", (key, _BOLD), f" {label} ").stylize(_REVERSE)
            else:
                tab = Content.assemble(" ", (key, _BOLD), " " if short else f" {label} ")
                tab = tab.stylize(Style.from_meta({"@click": f"app.open('{mode}')"}))
            tabs.append(tab)
        return Content("").join(tabs)
