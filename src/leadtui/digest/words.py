"""A digest in words, the same in the app's panel and on the command line."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from leadtui.digest.report import SURFACES, Digest, JobChange, Spent
from leadtui.spend.quote import plural

SURFACE_NAMES: Final = {"app": "this app", "cli": "the command line", "agent": "agents"}


def when(seconds: float, *, local: bool = False) -> str:
    """`2026-11-26 08:00 UTC`, one zone for every reader of a mail; or `2026-11-26 09:00` in
    local time, as the app's screens show every date."""
    if local:
        return datetime.fromtimestamp(seconds, UTC).astimezone().strftime("%Y-%m-%d %H:%M")
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def amount(spent: Spent) -> str:
    """`120 credits and 1 launch`, `nothing`."""
    parts = [
        plural(spent.credits, "credit") if spent.credits else "",
        plural(spent.launches, "launch") if spent.launches else "",
    ]
    return " and ".join(p for p in parts if p) or "nothing"


def window_line(digest: Digest) -> str:
    return f"Since {when(digest.since)} (until {when(digest.until)})"


def spent_line(digest: Digest) -> str:
    """`Spent 120 credits and 1 launch: this app 100 credits, the command line …`."""
    total = digest.spent
    if total == Spent():
        return "Spent nothing."
    shares = [
        f"{SURFACE_NAMES[s]} {amount(digest.by_surface[s])}"
        for s in SURFACES
        if digest.by_surface.get(s, Spent()) != Spent()
    ]
    return f"Spent {amount(total)}: " + ", ".join(shares) + "."


def balance_line(digest: Digest) -> str:
    then, now = digest.balance_then, digest.balance_now
    if then is None or now is None:
        return "Balance: not known."
    return f"Balance: {then:,} → {now:,} credits."


def approvals_line(digest: Digest) -> str:
    counts = digest.approvals
    if not counts.any:
        return "Approvals: none asked."
    return (
        f"Approvals: {counts.asked} asked, {counts.approved} approved, "
        f"{counts.denied} denied, {counts.expired} expired."
    )


def pending_line(digest: Digest) -> str:
    count = len(digest.pending)
    if not count:
        return "No spend pending."
    return (
        f"{plural(count, 'spend')} still pending: their outcome is unknown (leadtui pending list)."
    )


def jobs_line(digest: Digest) -> str:
    settled, moving = len(digest.settled), len(digest.moving)
    head = "No job settled" if not settled else f"{plural(settled, 'job')} settled"
    return f"{head}; {moving} still moving." if moving else f"{head}."


def job_line(job: JobChange, *, local: bool = False) -> str:
    """`Export exp_000012 ready · 2026-11-26 09:14 UTC` (local: without the zone)."""
    at = "time not stated" if job.at is None else when(job.at, local=local)
    return f"{job.kind.capitalize()} {job.id} {job.status} · {at}"
