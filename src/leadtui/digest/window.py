"""When a digest starts: `--since 24h`, `--since 90m`, `--since 2026-11-26T08:00Z`."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final

_UNITS: Final = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION: Final = re.compile(r"(\d+)([smhdw])")
WORDS: Final = "a duration (30m, 24h, 7d) or a UTC time (2026-11-26T08:00Z)"


class BadSince(ValueError):
    """`--since` is neither a duration nor a time, or lies ahead; the message says why."""


def since_from_text(text: str, now: float) -> float:
    """The start of the window `text` names, in unix seconds, at `now`."""
    given = text.strip()
    duration = _DURATION.fullmatch(given.lower())
    if duration is not None:
        amount, unit = duration.groups()
        return now - int(amount) * _UNITS[unit]
    try:
        moment = datetime.fromisoformat(given)
    except ValueError:
        raise BadSince(f"--since {text!r} is not {WORDS}.") from None
    if moment.tzinfo is None:  # a time without an offset is read as UTC, as the API writes it
        moment = moment.replace(tzinfo=UTC)
    start = moment.timestamp()
    if start > now:
        raise BadSince(f"--since {text!r} lies ahead of now; give a time in the past.")
    return start


def iso(seconds: float) -> str:
    """A time as the digest writes it: RFC 3339 in UTC, to the second."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def seconds_of(text: object) -> float | None:
    """A server's time (ISO 8601) in unix seconds; None when missing or unreadable."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
