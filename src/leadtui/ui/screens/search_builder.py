"""New search: placeholder until issue 5 replaces this module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.ui.screens.base import LeadScreen


class NewSearchScreen(LeadScreen):
    MODE = "new_search"
    LABEL = "New search"
    REQUIRED_SCOPES = ((Scope.SEARCHES_WRITE, "create searches"),)

    def compose_body(self) -> ComposeResult:
        yield Static(
            "New search will build a search from activities, countries and localisations "
            "within the API's limits, then create and count it (issue 5).",
            classes="placeholder",
        )
