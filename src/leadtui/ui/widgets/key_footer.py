"""The footer every screen uses: its keys on one line, each whole or not at all.

Textual's Footer lays out one widget per key in a scrolling row, re-composed on every binding
change; in a real terminal at 80 columns that cut keys mid-word ("esc Bac", "? Hel") and left
stale cells of the re-composed row ("^pp alette", "palettee"). This draws one line of text
instead: keys that do not fit are left out whole, and `? Help` (which lists them all) stays.
"""

from __future__ import annotations

from typing import NamedTuple

from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

_SEPARATOR = "  "
# Styles of spans in theme variables, not component classes: Textual styles a component class
# as a node of its own, twice before the first frame (~0.3 ms each).
_KEY = "$footer-key-foreground bold"
_DESCRIPTION = "$footer-description-foreground"
_DISABLED = "$footer-foreground dim"  # the key's colour too is greyed out


# A NamedTuple: defined on the first frame's path, where a dataclass costs ~0.5 ms more.
class FooterKey(NamedTuple):
    shown: str  # as drawn, e.g. "?"
    description: str
    enabled: bool
    kept: bool = False  # help and the palette: how to reach every key that did not fit
    main: bool = False  # the screen's main action: in its place at any width

    @property
    def width(self) -> int:
        return len(self.shown) + 1 + len(self.description)


def fit_keys(keys: list[FooterKey], width: int) -> list[FooterKey]:
    """The keys that fit `width` cells whole, in order; the screen's main actions in their
    place and kept keys (help, palette) always."""
    kept = [k for k in keys if k.kept]
    used = sum(k.width + len(_SEPARATOR) for k in keys if k.kept or k.main)
    chosen: list[FooterKey] = []
    for key in keys:
        if key.kept:
            continue
        if key.main:
            chosen.append(key)
            continue
        if used + key.width + len(_SEPARATOR) > width:
            break
        chosen.append(key)
        used += key.width + len(_SEPARATOR)
    # Left out after the first key that did not fit: the main ones that follow it stay.
    return [*chosen, *(k for k in keys if k.main and k not in chosen), *kept]


def footer_keys(screen: Screen[object]) -> list[FooterKey]:
    """The shown bindings active on `screen` (one per action), as the footer lists them."""
    app = screen.app
    main_actions: frozenset[str] = getattr(screen, "MAIN_ACTIONS", frozenset())
    keys: list[FooterKey] = []
    actions: set[str] = set()
    bindings = screen.active_bindings
    for active in bindings.values():
        binding: Binding = active.binding
        if not binding.show or binding.action in actions:
            continue
        actions.add(binding.action)
        shown = app.get_key_display(binding)
        kept = binding.action == "help"
        main = binding.action in main_actions
        keys.append(FooterKey(shown, binding.description, active.enabled, kept, main))
    palette = bindings.get(app.COMMAND_PALETTE_BINDING)
    if app.ENABLE_COMMAND_PALETTE and palette is not None:
        shown = app.get_key_display(palette.binding)
        keys.append(FooterKey(shown, "palette", palette.enabled, kept=True))
    return keys


class KeyFooter(Widget):
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        padding: 0 1;
        background: $footer-background;
        color: $footer-foreground;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda screen: self.refresh())

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def render(self) -> Content:
        width = self.content_region.width or self.size.width
        parts: list[str | tuple[str, str]] = []
        for index, key in enumerate(fit_keys(footer_keys(self.screen), width)):
            if index:
                parts.append(_SEPARATOR)
            if key.enabled:
                parts += [(key.shown, _KEY), (" " + key.description, _DESCRIPTION)]
            else:
                parts += [(key.shown, f"{_DISABLED} bold"), (" " + key.description, _DISABLED)]
        return Content.assemble(*parts)
