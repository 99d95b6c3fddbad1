"""Who asked for a journaled spend and who approved it: the one rule History and `leadtui
pending` both read. A spend approved in the running app names both processes in its approved
request row; any other spend was authorized on its own surface, which the journal names with
what let it out (a dialog, a prompt, a ceiling, a budget).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from leadtui.spend.approvals import ApprovalDesk, ApprovalRequest, Party, Ruling
from leadtui.spend.errors import JournalError
from leadtui.spend.intent import SpendIntent

SURFACE_WORDS: Final = {"app": "app", "cli": "command line", "agent": "agent"}
"""How a surface is named to a person (a spend an earlier version journaled has none)."""

# What let a spend out when nobody approved it in the app, by surface where it differs.
_CONFIRMED: Final = {"app": "dialog", "cli": "prompt", "agent": "elicitation"}
_AUTHORIZED: Final = {
    "max-credits": "--max-credits",
    "max-launches": "--max-launches",
    "allowance": "allowance",
    "budget": "budget",
}
NOBODY: Final = "—"


@dataclass(frozen=True)
class SpendParties:
    """Who asked for one spend and who (or what) approved it."""

    surface: str
    """The surface that journaled it: `app`, `cli`, `agent` ("" for an earlier version's)."""
    authorized_by: str | None
    """What the journal says let it out (`confirmation`, `budget`, …)."""
    asker: Party | None = None
    """The process that asked the running app (None: not asked in the app)."""
    approver: Party | None = None
    """The app that approved it (None: not approved in the app)."""

    @property
    def asked_by(self) -> str:
        """`test agent (4242)`: who asked the app, and its process id; else the surface that
        asked on its own: `command line`, `agent`, `app`."""
        if self.asker is not None:
            return _named(self.asker)
        return SURFACE_WORDS.get(self.surface, self.surface or NOBODY)

    @property
    def approved_by(self) -> str:
        """`app (4242)` for a yes in the Approvals screen, with that app's process id; else
        what let it out on its own surface (`dialog`, `prompt`, `budget`, `--max-credits`…),
        or `—`."""
        if self.approver is not None:
            return _named(self.approver)
        if self.authorized_by == "confirmation":
            return _CONFIRMED.get(self.surface, "confirmed")
        return _AUTHORIZED.get(self.authorized_by or "", NOBODY)

    def to_json(self) -> dict[str, Any]:
        """`asked_by` and `approved_by` as `leadtui pending --json` prints them: the parties
        of an approval in the app, both None for a spend that was not asked there."""
        return {
            "asked_by": None if self.asker is None else self.asker.to_json(),
            "approved_by": None if self.approver is None else self.approver.to_json(),
        }


def _named(party: Party) -> str:
    # The app names itself "leadtui app"; a column of who approved needs only "app".
    name = "app" if party.surface == "app" else party.name
    return f"{name} ({party.pid})"


class ApprovedSpends:
    """The approvals the app gave, by idempotency key: read once, asked of every intent."""

    def __init__(self, approved: Mapping[str, ApprovalRequest]) -> None:
        self._approved = dict(approved)

    @classmethod
    def read(cls, desk: ApprovalDesk) -> ApprovedSpends:
        """The journal's approved requests (none when they cannot be read). Blocking."""
        try:
            requests = desk.listed().requests
        except JournalError:
            return cls({})
        approved = [r for r in requests if r.answer and r.answer.verdict is Ruling.APPROVED]
        return cls({r.idempotency_key: r for r in approved})

    def parties(self, intent: SpendIntent) -> SpendParties:
        request = self._approved.get(intent.idempotency_key)
        same = request is not None and dict(request.params) == dict(intent.params)
        if request is None or request.answer is None or not same:
            return SpendParties(intent.surface, intent.authorized_by)
        return SpendParties(intent.surface, intent.authorized_by, request.asker, request.answer.by)
