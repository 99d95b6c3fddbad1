"""`leadtui digest [--since DURATION|TIME]`: what changed since a time, for a script or a
morning mail: jobs settled, credits and launches spent by surface, approvals, pending spends."""

from __future__ import annotations

import asyncio
from typing import Final

from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure, usage_failure
from leadtui.cli.runtime import Context
from leadtui.digest.gather import Window, gather
from leadtui.digest.marks import Looker, Mark, Marks, Seen, marks_path
from leadtui.digest.report import Digest
from leadtui.digest.window import BadSince, since_from_text
from leadtui.digest.words import (
    approvals_line,
    balance_line,
    job_line,
    jobs_line,
    pending_line,
    spent_line,
    window_line,
)
from leadtui.spend.account import SpendAccount
from leadtui.spend.errors import Code, JournalError
from leadtui.spend.journal import SpendJournal

FIRST_LOOK_SECONDS: Final = 24 * 3600
"""Without --since and never seen before: the last day."""


async def show(ctx: Context) -> int:
    now = ctx.deps.now()
    since: float | None = None
    if ctx.ns.since is not None:
        try:
            since = since_from_text(ctx.ns.since, now)
        except BadSince as exc:
            raise usage_failure(str(exc), hint="For example: leadtui digest --since 24h") from None
    client = ctx.client()
    identity = await client.me()
    seen = Seen(ctx.profile, client.base_url, SpendAccount.of(identity, client.key_masked))
    marks = Marks(marks_path(ctx.deps.journal_path))
    window = Window(now - FIRST_LOOK_SECONDS if since is None else since, now)
    if since is None:
        last = await asyncio.to_thread(marks.last, seen, Looker.APP, Looker.DIGEST)
        if last is not None:
            window = Window(min(last.at, now), now, last.balance)
    try:
        journal = await asyncio.to_thread(SpendJournal, ctx.deps.journal_path)
        digest = await gather(client, identity, journal, seen, window)
    except JournalError as exc:
        raise CliFailure(Code.JOURNAL_UNAVAILABLE, str(exc), Exit.UNEXPECTED) from None
    try:
        await asyncio.to_thread(marks.put, seen, Looker.DIGEST, Mark(now, identity.credits))
    except OSError as exc:
        ctx.out.info(f"Not remembered for the next digest: {exc}")
    if ctx.out.machine:
        ctx.out.document(digest.to_json())
    else:
        _print(ctx, digest)
    return 0


def _print(ctx: Context, digest: Digest) -> None:
    ctx.out.line(ctx.out.bold(window_line(digest)))
    for line in (spent_line(digest), balance_line(digest), jobs_line(digest)):
        ctx.out.line(line)
    for job in digest.settled:
        ctx.out.line(f"  {job_line(job)}")
    ctx.out.line(approvals_line(digest))
    ctx.out.line(pending_line(digest))
