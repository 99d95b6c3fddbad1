"""The command palette (ctrl+p): `group: action` entries from the app and the current screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from leadtui.ui.app import LeadApp


@dataclass(frozen=True)
class PaletteCommand:
    """One palette entry: `title` is "group: action", e.g. "jobs: refresh"."""

    title: str
    help: str
    run: Callable[[], object]


class LeadCommands(Provider):
    """Lists `LeadApp.palette_commands()` for the screen the palette was opened from."""

    def _commands(self) -> list[PaletteCommand]:
        return cast("LeadApp", self.app).palette_commands(self.screen)

    async def discover(self) -> Hits:
        for command in self._commands():
            yield DiscoveryHit(command.title, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.run, help=command.help)
