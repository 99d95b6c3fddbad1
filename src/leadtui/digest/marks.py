"""When the app, or the digest, last looked at an account: `seen.json` beside the journal.

One mark per profile, server and account, for each of the two lookers. The file is replaced
whole (written to a temporary file, then renamed), so a reader never sees half of it; two
writers at once lose at most one of their marks, which only makes the next digest reach a
little further back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from leadtui.durable import write_atomically
from leadtui.spend.account import SpendAccount
from leadtui.spend.journal import default_journal_path
from leadtui.spend.origin import spend_origin

FILE_NAME: Final = "seen.json"


class Looker(StrEnum):
    APP = "app"
    DIGEST = "digest"


@dataclass(frozen=True)
class Mark:
    """When it looked (unix seconds) and the balance it saw then, when it knew it."""

    at: float
    balance: int | None = None


@dataclass(frozen=True)
class Seen:
    """Whose marks: one profile, on one server, of one account."""

    profile: str
    origin: str
    account: SpendAccount

    @property
    def key(self) -> str:
        who = self.account.id or f"key {self.account.key_hint}"
        return f"{self.profile} {spend_origin(self.origin)} {who}"


def marks_path(journal_path: Path | None = None) -> Path:
    """Beside the journal: the state dir, or next to a journal given explicitly."""
    return (journal_path or default_journal_path()).parent / FILE_NAME


class Marks:
    """The marks file. Blocking file I/O: call it from a thread in an event loop."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}  # none yet, or unreadable: every look starts afresh
        return data if isinstance(data, dict) else {}

    def get(self, seen: Seen, looker: Looker) -> Mark | None:
        entry = self._read().get(seen.key, {})
        mark = entry.get(looker.value) if isinstance(entry, dict) else None
        if not isinstance(mark, dict):
            return None
        at, balance = mark.get("at"), mark.get("balance")
        if isinstance(at, bool) or not isinstance(at, int | float):
            return None
        whole = isinstance(balance, int) and not isinstance(balance, bool)
        return Mark(float(at), balance if whole else None)

    def last(self, seen: Seen, *lookers: Looker) -> Mark | None:
        """The latest mark of any of `lookers`."""
        marks = [m for m in (self.get(seen, looker) for looker in lookers) if m is not None]
        return max(marks, key=lambda m: m.at, default=None)

    def put(self, seen: Seen, looker: Looker, mark: Mark) -> None:
        """Remember `mark`; raises OSError when the file cannot be written."""
        data = self._read()
        entry = data.get(seen.key)
        entry = entry if isinstance(entry, dict) else {}
        entry[looker.value] = {"at": mark.at, "balance": mark.balance}
        data[seen.key] = entry
        write_atomically(self.path, json.dumps(data, sort_keys=True, indent=1).encode())
