"""How times read on screen: "updated 3s ago" (pass `LeadApp.clock()` differences) and dates."""

from __future__ import annotations

from datetime import datetime


def ago(seconds: float) -> str:
    """`just now`, `12s ago`, `3 min ago`, `2 h ago`, `6 d ago`."""
    seconds = max(0.0, seconds)
    if seconds < 1:
        return "just now"
    if seconds < 60:
        return f"{int(seconds)}s ago"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 48 * 3600:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} d ago"


def date_time(value: str | None) -> str:
    """An ISO 8601 time from the server as every screen shows a date: `2026-01-31 14:05` in
    local time; `—` when missing or unreadable."""
    if not value:
        return "—"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return "—"
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
