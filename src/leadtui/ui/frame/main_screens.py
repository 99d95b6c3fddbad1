"""The main screens, as the frame knows them before their modules are imported: each one's
mode and label are written here once; the screen classes take theirs from these entries."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from leadtui.ui.screens.base import LeadScreen


@dataclass(frozen=True)
class ScreenEntry:
    """A main screen as the frame knows it before its module is imported (start-up time: only
    the screen shown first is imported before the first frame). Calling it builds the screen,
    which is how Textual's MODES use it.
    """

    mode: str
    label: str
    module: str  # under leadtui.ui.screens
    name: str  # the LeadScreen subclass

    def __call__(self) -> LeadScreen:
        cls: type[LeadScreen] = getattr(
            importlib.import_module(f"leadtui.ui.screens.{self.module}"), self.name
        )
        return cls()


ACCOUNT = ScreenEntry("account", "Account", "account", "AccountScreen")
SEARCHES = ScreenEntry("searches", "Searches", "searches", "SearchesScreen")
NEW_SEARCH = ScreenEntry("new_search", "New search", "search_builder", "NewSearchScreen")
JOBS = ScreenEntry("jobs", "Jobs", "jobs", "JobsScreen")

# Screens in tab order; each is an app mode with its own screen stack.
SCREENS: tuple[ScreenEntry, ...] = (ACCOUNT, SEARCHES, NEW_SEARCH, JOBS)
