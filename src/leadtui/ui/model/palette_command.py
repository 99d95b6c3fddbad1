"""`PaletteCommand`: one entry of the command palette, as a screen or the app lists it."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


# A NamedTuple: defined on the first frame's path, where a dataclass costs ~0.5 ms more.
class PaletteCommand(NamedTuple):
    """One palette entry: `title` is "group: action", e.g. "jobs: refresh"."""

    title: str
    help: str
    run: Callable[[], object]

    @property
    def words(self) -> str:
        """The title without the key it may end with: what two entries are compared by."""
        return self.title.split("  ")[0].strip().casefold()
