"""The command palette (ctrl+p): `group: action  key` entries for every key of the current
screen and its focused table, then the app's screens and actions.

Opened without typing, the palette lists the screen's own actions first, in the order the
screen binds them (its most used first). The app names `LeadCommands` through a function, so
this module is imported when the palette first opens, not with the first frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from leadtui.ui.model.key_names import keys_name
from leadtui.ui.model.palette_command import PaletteCommand

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.screen import Screen


# Bindings the palette leaves out: moving a cursor is no command, and the screens and app
# actions have entries of their own.
_LEFT_OUT_IDS = (
    "screens.",
    "app.",
    "table.down",
    "table.up",
    "table.first",
    "table.last",
    "table.page_",
    "table.half_",
    "table.column_",
)
_GENERIC_ACTIONS = ("scroll_", "copy_text", "page_", "focus_", "cursor_", "select_cursor")


def _action_words(description: str) -> str:
    # "Download ZIP" → "download ZIP": titles read as "jobs: download ZIP"; a first word in
    # capitals ("ZIP", "CSV") is an acronym and stays as it is.
    first = description.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return description
    return description[:1].lower() + description[1:]


def binding_commands(screen: Screen[Any]) -> list[PaletteCommand]:
    """An entry for every key the screen and its focused widgets bind, with the keys shown."""
    group = (getattr(screen, "LABEL", "") or "screen").casefold()
    found: dict[tuple[str, int], tuple[Binding, DOMNode, list[str], bool]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or binding.system:
            continue
        if binding.id is not None and binding.id.startswith(_LEFT_OUT_IDS):
            continue
        if binding.id is None and binding.action.startswith(_GENERIC_ACTIONS):
            continue
        slot = (binding.action, id(active.node))
        if slot in found:
            found[slot][2].append(key)
        else:
            found[slot] = (binding, active.node, [key], active.enabled)
    commands = []
    for binding, node, keys, enabled in found.values():
        shown = keys_name(keys)  # as help names them: "shift+↑", never the footer's "⇧↑"
        commands.append(
            PaletteCommand(
                f"{group}: {_action_words(binding.description)}  {shown}",
                "" if enabled else "not available now",
                _runner(screen, binding.action, node),
            )
        )
    return commands


def _runner(screen: Screen[Any], action: str, node: DOMNode) -> Callable[[], object]:
    return lambda: screen.app.run_action(action, node)


def palette_entries(screen: Screen[Any], others: list[PaletteCommand]) -> list[PaletteCommand]:
    """The screen's keys first, then `others` (an entry naming the same action as a key is
    dropped, its help kept on the key's entry)."""
    keyed = binding_commands(screen)
    by_words = {command.words: i for i, command in enumerate(keyed)}
    rest = []
    for command in others:
        index = by_words.get(command.words)
        if index is None:
            rest.append(command)
        elif command.help and not keyed[index].help:
            keyed[index] = PaletteCommand(keyed[index].title, command.help, keyed[index].run)
    return keyed + rest


@runtime_checkable
class PaletteSource(Protocol):
    """An app that lists its own commands for a screen (LeadApp)."""

    def palette_commands(self, screen: Screen[Any]) -> list[PaletteCommand]: ...


class LeadCommands(Provider):
    """Lists `LeadApp.palette_commands()` for the screen the palette was opened from."""

    def _commands(self) -> list[PaletteCommand]:
        app = self.app
        own = app.palette_commands(self.screen) if isinstance(app, PaletteSource) else []
        return palette_entries(self.screen, own)

    async def discover(self) -> Hits:
        for command in self._commands():
            yield DiscoveryHit(command.title, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.run, help=command.help)
