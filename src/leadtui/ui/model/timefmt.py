"""Human durations for "updated 3s ago" labels (pass `LeadApp.clock()` differences)."""

from __future__ import annotations


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
