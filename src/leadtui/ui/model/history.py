"""This session's requests and notifications, newest first: what a support ticket needs.

Textual-free. A bounded ring: the oldest entry goes when the 501st comes. Entries hold what an
`Exchange` holds (no header, no body) and the words of notifications, never the API key.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from leadtui.api.exchange import Exchange

LIMIT: Final = 500
# "What" last: a notification's words are long, and the columns after them went off screen.
COLUMNS: Final = ("Time", "Status", "Took", "Request id", "Key", "What")


def _utc(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


# A NamedTuple: defined on the first frame's path, where a dataclass costs ~0.5 ms more.
class HistoryEntry(NamedTuple):
    """A request (`exchange` set) or a notification (`title`, `text`, `severity`)."""

    at: float
    number: int
    """1 for the session's first entry: tells entries apart, whatever else they share."""
    exchange: Exchange | None = None
    title: str = ""
    text: str = ""
    severity: str = ""

    @property
    def what(self) -> str:
        if self.exchange is None:
            head = f"{self.title}: " if self.title else ""
            return f"{head}{' '.join(self.text.split())}"
        retry = f" (retry {self.exchange.attempt - 1})" if self.exchange.attempt > 1 else ""
        return f"{self.exchange.method} {self.exchange.path}{retry}"

    @property
    def status(self) -> str:
        exchange = self.exchange
        if exchange is None:
            return self.severity or "note"
        if exchange.status is None:
            return exchange.outcome
        if exchange.outcome == "ok":
            return str(exchange.status)
        return f"{exchange.status} {exchange.outcome}"

    def cells(self) -> tuple[str, str, str, str, str, str]:
        """The row under `COLUMNS`: time of day (UTC), status, took, request id, key, what."""
        from leadtui.api.keys import short_key  # a row is drawn long after the first frame

        exchange = self.exchange
        took = f"{exchange.seconds * 1000:,.0f} ms" if exchange else ""
        request_id = (exchange.request_id or "") if exchange else ""
        key = short_key(exchange.idempotency_key) if exchange and exchange.idempotency_key else ""
        when = _utc(self.at).strftime("%H:%M:%S")
        return when, self.status, took, request_id, key, self.what

    def line(self) -> str:
        """One line to paste into a ticket: the full UTC time and every field that is set."""
        _, status, took, request_id, key, what = self.cells()
        parts = [_utc(self.at).isoformat(timespec="seconds").replace("+00:00", "Z"), what, status]
        parts += [part for part in (took, request_id and f"request_id={request_id}") if part]
        if key:
            parts.append(f"idempotency_key={key}…")
        return "  ".join(parts)

    @property
    def request_id(self) -> str | None:
        return self.exchange.request_id if self.exchange else None

    def record(self) -> dict[str, Any]:
        """The whole entry as a JSON object (the idempotency key in full: it is no secret)."""
        when = _utc(self.at).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        exchange = self.exchange
        if exchange is None:
            return {
                "time": when,
                "notification": self.title,
                "text": self.text,
                "severity": self.severity,
            }
        return {
            "time": when,
            "method": exchange.method,
            "path": exchange.path,
            "status": exchange.status,
            "outcome": exchange.outcome,
            "duration_ms": round(exchange.seconds * 1000, 1),
            "request_id": exchange.request_id,
            "idempotency_key": exchange.idempotency_key,
            "attempt": exchange.attempt,
        }


class History:
    """The last `limit` entries; listeners are told after each new one."""

    def __init__(self, clock: Callable[[], float], limit: int = LIMIT) -> None:
        self._clock = clock
        self._entries: deque[HistoryEntry] = deque(maxlen=limit)
        self._listeners: list[Callable[[], object]] = []
        self._added = 0

    def add_exchange(self, exchange: Exchange) -> None:
        self._add(exchange=exchange)

    def add_notice(self, title: str, text: str, severity: str) -> None:
        self._add(title=title, text=text, severity=severity)

    def _add(self, **fields: Any) -> None:
        self._added += 1
        self._entries.append(HistoryEntry(self._clock(), self._added, **fields))
        for listener in list(self._listeners):
            listener()

    def entries(self) -> list[HistoryEntry]:
        """Newest first."""
        return list(reversed(self._entries))

    def listen(self, listener: Callable[[], object]) -> Callable[[], None]:
        """Call `listener` after each new entry, until the returned function is called."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)
