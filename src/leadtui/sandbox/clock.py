"""The sandbox's notion of now: the configured clock, plus an offset or a freeze set by tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime


class SandboxClock:
    """Every timestamp, job progress and usage day comes from here."""

    def __init__(self, source: Callable[[], float]) -> None:
        self._source = source
        self._offset = 0.0
        self._frozen: float | None = None
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            if self._frozen is not None:
                return self._frozen
            return self._source() + self._offset

    def advance(self, seconds: float) -> None:
        with self._lock:
            if self._frozen is not None:
                self._frozen += seconds
            else:
                self._offset += seconds

    def freeze(self) -> None:
        current = self.now()
        with self._lock:
            self._frozen = current

    def unfreeze(self) -> None:
        with self._lock:
            if self._frozen is not None:
                self._offset = self._frozen - self._source()
            self._frozen = None

    def reset(self) -> None:
        with self._lock:
            self._offset = 0.0
            self._frozen = None


def iso(ts: float) -> str:
    """An RFC 3339 UTC timestamp with millisecond precision."""
    moment = datetime.fromtimestamp(ts, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def day_of(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")
