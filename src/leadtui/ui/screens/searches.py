"""Searches: placeholder until issue 5 replaces this module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.ui.screens.base import LeadScreen


class SearchesScreen(LeadScreen):
    MODE = "searches"
    LABEL = "Searches"
    REQUIRED_SCOPES = ((Scope.SEARCHES_READ, "list your searches"),)

    def compose_body(self) -> ComposeResult:
        yield Static(
            "Searches will list your saved searches with their result counts, show the results "
            "you already unlocked, and unlock more with credits after a confirmation that shows "
            "the cost (issue 5).",
            classes="placeholder",
        )
