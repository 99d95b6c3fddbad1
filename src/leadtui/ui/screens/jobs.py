"""Jobs: placeholder until issue 6 replaces this module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.ui.screens.base import LeadScreen


class JobsScreen(LeadScreen):
    MODE = "jobs"
    LABEL = "Jobs"
    REQUIRED_SCOPES = ((Scope.EXPORTS_READ, "follow your export jobs"),)

    def compose_body(self) -> ComposeResult:
        yield Static(
            "Jobs will follow your exports and extractions live — queued, processing, ready — "
            "and download ready exports; extractions can be paused, resumed and stopped "
            "(issue 6).",
            classes="placeholder",
        )
