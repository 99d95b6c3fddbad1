"""A digest: what changed between `since` and `until`, and its one JSON document."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final

from leadtui.digest.window import iso
from leadtui.spend.intent import SpendIntent, SpendOperation

SURFACES: Final = ("app", "cli", "agent")
"""Who spends: this app, the command line, agents (through `leadtui mcp`)."""


@dataclass(frozen=True)
class JobChange:
    """One job as the list showed it: its kind (`export` or `extraction`), id, status, and
    when it last changed (unix seconds; None when the server did not say)."""

    kind: str
    id: str
    status: str
    at: float | None

    def to_json(self) -> dict[str, Any]:
        when = None if self.at is None else iso(self.at)
        return {"kind": self.kind, "id": self.id, "status": self.status, "at": when}


@dataclass(frozen=True)
class Spent:
    """Credits and launches one surface spent (settled as taken by the server)."""

    credits: int = 0
    launches: int = 0

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.credits + other.credits, self.launches + other.launches)

    @classmethod
    def of(cls, intent: SpendIntent) -> Spent:
        if intent.operation is SpendOperation.UNLOCK:
            return cls(credits=intent.debited if intent.debited is not None else intent.amount or 0)
        return cls(launches=1)


@dataclass(frozen=True)
class ApprovalCounts:
    """Spends scripts and agents asked this app to approve, and how they were answered."""

    asked: int = 0
    approved: int = 0
    denied: int = 0
    expired: int = 0

    @property
    def any(self) -> bool:
        return any(asdict(self).values())


@dataclass(frozen=True)
class Digest:
    since: float
    until: float
    settled: list[JobChange] = field(default_factory=list)
    """Jobs that settled in the window, newest first."""
    moving: list[JobChange] = field(default_factory=list)
    """Jobs of the lists read that are still moving."""
    by_surface: dict[str, Spent] = field(default_factory=dict)
    approvals: ApprovalCounts = field(default_factory=ApprovalCounts)
    pending: list[SpendIntent] = field(default_factory=list)
    """The account's spends whose outcome is still unknown (any age)."""
    balance_then: int | None = None
    balance_now: int | None = None

    @property
    def spent(self) -> Spent:
        return sum(self.by_surface.values(), Spent())

    @property
    def changed(self) -> bool:
        """Anything to tell: a job settled, something was spent, an approval was asked or
        answered, or a spend journaled in the window pends (one pending from before was
        told then)."""
        spent = self.spent
        pends = any(i.created_at.timestamp() >= self.since for i in self.pending)
        return bool(self.settled or spent.credits or spent.launches or self.approvals.any or pends)

    def to_json(self) -> dict[str, Any]:
        spent = self.spent
        return {
            "since": iso(self.since),
            "until": iso(self.until),
            "spent": asdict(spent)
            | {"by_surface": {s: asdict(self.by_surface.get(s, Spent())) for s in SURFACES}},
            "jobs": {
                "settled": [job.to_json() for job in self.settled],
                "moving": [job.to_json() for job in self.moving],
            },
            "approvals": asdict(self.approvals),
            "pending": [pending_json(intent) for intent in self.pending],
            "balance": {"then": self.balance_then, "now": self.balance_now},
        }


def pending_json(intent: SpendIntent) -> dict[str, Any]:
    """A pending spend as the digest lists it (never the body or the key's secret part)."""
    return {
        "idempotency_key": intent.idempotency_key,
        "operation": intent.operation.value,
        "amount": intent.amount,
        "surface": intent.surface or None,
        "journaled_at": iso(intent.created_at.timestamp()),
    }
