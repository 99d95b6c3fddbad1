"""How times read on screen: "updated 3s ago" (pass `LeadApp.clock()` differences) and dates."""

from __future__ import annotations

import math
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


def moment(value: str | None) -> datetime | None:
    """An ISO 8601 time from the server; None when missing or unreadable."""
    try:
        return datetime.fromisoformat(value) if value else None
    except ValueError:
        return None


def date_time(value: str | None) -> str:
    """A server time as every screen shows a date: `2026-01-31 14:05` in local time; `—` when
    missing or unreadable."""
    at = moment(value)
    return at.astimezone().strftime("%Y-%m-%d %H:%M") if at else "—"


def duration(seconds: float) -> str:
    """A wait in words: `45s`, `4 min 10s`, `27 hours`, `more than a week` (also infinity)."""
    if not seconds < 7 * 86400:  # also NaN and infinity
        return "more than a week"
    whole = max(0, math.ceil(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        minutes, rest = divmod(whole, 60)
        return f"{minutes} min {rest}s" if rest else f"{minutes} min"
    hours = round(whole / 3600)
    return f"{hours} hours" if hours != 1 else "1 hour"
