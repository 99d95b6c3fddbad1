"""Gathering a digest: the job lists read newest first, only as far back as the window, and
the journal and the approvals read once each; never a request per job."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, TypeVar

from leadtui.api.client import LeadClient
from leadtui.api.contract import (
    MOVING_EXPORT_STATES,
    MOVING_EXTRACTION_STATES,
    SETTLED_EXPORT_STATES,
    SETTLED_EXTRACTION_STATES,
    Scope,
)
from leadtui.api.models import PAGE_LIMIT_MAX, Export, Extraction, Identity, Page
from leadtui.digest.approvals import approval_counts
from leadtui.digest.marks import Seen
from leadtui.digest.report import Digest, JobChange, Spent
from leadtui.digest.window import seconds_of
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal

J = TypeVar("J", Export, Extraction)

MAX_PAGES: Final = 100
"""A window reaching further back than this many pages of jobs stops there."""


@dataclass(frozen=True)
class Window:
    since: float
    until: float
    balance_then: int | None = None
    """The balance seen at `since`, when it was (the app's mark); else it is worked out from
    the balance now and what was spent since."""


@dataclass(frozen=True)
class _Kind:
    name: str
    scope: Scope
    settled: frozenset[str]
    moving: frozenset[str]


_EXPORTS: Final = _Kind("export", Scope.EXPORTS_READ, SETTLED_EXPORT_STATES, MOVING_EXPORT_STATES)
_EXTRACTIONS: Final = _Kind(
    "extraction", Scope.EXTRACTIONS_READ, SETTLED_EXTRACTION_STATES, MOVING_EXTRACTION_STATES
)


async def gather(
    client: LeadClient,
    identity: Identity,
    journal: SpendJournal,
    seen: Seen,
    window: Window,
) -> Digest:
    """What changed for `seen`'s account in `window`. Raises the client's LeadError, or
    JournalError when the journal cannot be read."""
    exports = _walk(
        _EXPORTS, identity, window, lambda c: client.exports.list(c, PAGE_LIMIT_MAX), _export
    )
    extractions = _walk(
        _EXTRACTIONS, identity, window, lambda c: client.extractions.list(c), _extraction
    )
    (settled_e, moving_e), (settled_x, moving_x) = await asyncio.gather(exports, extractions)
    since = datetime.fromtimestamp(window.since, UTC)
    until = datetime.fromtimestamp(window.until, UTC)
    journaled, pending, approvals = await asyncio.gather(
        asyncio.to_thread(journal.journaled_between, seen.profile, seen.origin, since, until),
        asyncio.to_thread(journal.pending, seen.profile, seen.origin, seen.account),
        asyncio.to_thread(approval_counts, journal, seen, window.since, window.until),
    )
    by_surface: dict[str, Spent] = {}
    for intent in journaled:
        if intent.outcome is SpendOutcome.SUCCEEDED and intent.account.same_as(seen.account):
            by_surface[intent.surface] = by_surface.get(intent.surface, Spent()) + Spent.of(intent)
    spent = sum(by_surface.values(), Spent())
    settled = sorted([*settled_e, *settled_x], key=lambda j: j.at or 0.0, reverse=True)
    then = window.balance_then
    return Digest(
        since=window.since,
        until=window.until,
        settled=settled,
        moving=[*moving_e, *moving_x],
        by_surface=by_surface,
        approvals=approvals,
        pending=pending,
        balance_then=identity.credits + spent.credits if then is None else then,
        balance_now=identity.credits,
    )


def _export(job: Export) -> tuple[str, str, str | None, str | None]:
    return job.exportId, job.status, job.created_at, job.updated_at


def _extraction(job: Extraction) -> tuple[str, str, str | None, str | None]:
    return job.extractionId, job.status or "", job.created_at, job.updated_at


async def _walk(
    kind: _Kind,
    identity: Identity,
    window: Window,
    fetch: Callable[[str | None], Awaitable[Page[J]]],
    fields: Callable[[J], tuple[str, str, str | None, str | None]],
) -> tuple[list[JobChange], list[JobChange]]:
    """Settled in the window, and still moving: pages newest first, up to the first page
    that reaches a job created before the window (a key without the scope reads none)."""
    if identity.scopes and kind.scope.value not in identity.scopes:
        return [], []
    settled: list[JobChange] = []
    moving: list[JobChange] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await fetch(cursor)
        older = False
        for job in page.items:
            job_id, status, created, updated = fields(job)
            at = seconds_of(updated) or seconds_of(created)
            change = JobChange(kind.name, job_id, status, at)
            if status in kind.settled and at is not None and window.since <= at <= window.until:
                settled.append(change)
            elif status in kind.moving:
                moving.append(change)
            born = seconds_of(created)
            older = older or (born is not None and born < window.since)
        if older or page.is_last:
            break
        cursor = page.next_cursor
    return settled, moving
