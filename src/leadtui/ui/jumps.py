"""Jumps between related records: a search's exports on Jobs, and an export's search."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leadtui.api.errors import LeadError

if TYPE_CHECKING:
    from leadtui.ui.app import LeadApp


async def show_exports_of(app: LeadApp, search_id: str) -> None:
    """Jobs, its exports filtered to `search_id` (Esc there clears the filter)."""
    from leadtui.ui.widgets.job_tables import ExportTable

    await app.switch_mode("jobs")
    table = app.screen.query_one(ExportTable)
    table.typed_filter.query = search_id
    table.filter_to(search_id)
    table.focus()


async def show_search_of(app: LeadApp, search_id: str) -> None:
    """The search `search_id` in the Searches stack (read again: its counts may have moved)."""
    from leadtui.ui.screens.searches import show_search

    try:
        search = await app.client.searches.get(search_id)
    except LeadError as error:
        app.notify_error(error)
        return
    await show_search(app, search)
