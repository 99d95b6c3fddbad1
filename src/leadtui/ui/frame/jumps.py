"""Jumps between related records: a search's detail, its exports on Jobs, an export's search.

Screens ask for a jump through the app's handle (`open_search`, `show_exports_of`,
`show_search_of`), so no screen imports another screen's module for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leadtui.api.errors import LeadError
from leadtui.ui.frame.handle import app_handle

if TYPE_CHECKING:
    from textual.app import App

    from leadtui.api.models import Search


async def show_search(app: App[Any], search: Search) -> None:
    """Open `search` in the Searches stack: the list, then this one detail. A detail shown
    before is replaced, never piled under it, so Esc from a detail goes to the list."""
    from leadtui.ui.screens.search_detail import SearchDetailScreen
    from leadtui.ui.screens.searches import SearchesScreen

    if app.current_mode != SearchesScreen.MODE:
        await app.switch_mode(SearchesScreen.MODE)
    while len(app.screen_stack) > 1 and not isinstance(app.screen, SearchesScreen):
        await app.pop_screen()
    await app.push_screen(SearchDetailScreen(search))


async def show_exports_of(app: App[Any], search_id: str) -> None:
    """Jobs, its exports filtered to `search_id` (Esc there clears the filter)."""
    from leadtui.ui.widgets.job_tables import ExportTable

    await app.switch_mode("jobs")
    table = app.screen.query_one(ExportTable)
    table.typed_filter.query = search_id
    table.filter_to(search_id)
    table.focus()


async def show_search_of(app: App[Any], search_id: str) -> None:
    """The search `search_id` in the Searches stack (read again: its counts may have moved)."""
    lead = app_handle(app)
    try:
        search = await lead.client.searches.get(search_id)
    except LeadError as error:
        lead.notify_error(error)
        return
    await show_search(app, search)
