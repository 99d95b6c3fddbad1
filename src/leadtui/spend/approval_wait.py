"""The asker's side of an approval in the running app: write the request, wait, read the answer.

A surface that cannot ask anyone calls `InAppApproval.wait` when the decision is "ask": it
returns the spend the person approved (exactly the one it holds), or raises an
`ApprovalRefused` carrying the quote — denied, timed out, or an answer that does not match.
A stale quote (price or balance changed) is quoted again by the caller's `requote` and asked
anew, within the same overall timeout. Waiting reads only local files, on the injected clock
and sleep; the caller sends the approved spend itself, through the spend core. Before asking,
the folder's old files are pruned (`approval_pruning.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from leadtui.spend.account import SpendAccount
from leadtui.spend.approval_files import UnreadableApproval
from leadtui.spend.approval_pruning import prune_approvals
from leadtui.spend.approval_records import Answer, ApprovalRequest, Party, Progress, Verdict
from leadtui.spend.approval_refusals import (
    ApprovalMismatch,
    ApprovalRefused,
    ApprovalTimedOut,
    DeniedInApp,
    refusal_of,
)
from leadtui.spend.approvals import DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, ApprovalDesk
from leadtui.spend.journal import canonical_body_hash
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest

Sleep = Callable[[float], Awaitable[None]]
Report = Callable[[str], Awaitable[None] | None]
"""Told how the wait goes (a line on stderr, an MCP progress notification)."""
Requote = Callable[[SpendRequest], Awaitable[SpendRequest]]
"""Quotes the same spend again with a balance read fresh (same key, same body)."""

__all__ = [
    "ApprovalMismatch",
    "ApprovalRefused",
    "ApprovalTimedOut",
    "Approved",
    "DeniedInApp",
    "InAppApproval",
    "check_wait_seconds",
]

POLL_SECONDS: Final = 0.5
REPORT_EVERY_SECONDS: Final = 10.0


def check_wait_seconds(seconds: float) -> float:
    """A caller's timeout: more than 0 and at most 15 minutes. Raises ValueError."""
    if not 0 < seconds <= MAX_WAIT_SECONDS:
        raise ValueError(f"must be more than 0 and at most {MAX_WAIT_SECONDS:.0f} seconds")
    return seconds


@dataclass(frozen=True)
class Approved:
    """The spend a person approved in the app, and its request file (for the outcome)."""

    request: SpendRequest
    record: ApprovalRequest
    answer: Answer


@dataclass
class InAppApproval:
    """How a surface that cannot ask waits for the running app's answer."""

    desk: ApprovalDesk
    asker: Party
    timeout: float = DEFAULT_WAIT_SECONDS
    sleep: Sleep = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    report: Report | None = None
    wall_clock: Callable[[], float] = time.time
    """Wall-clock seconds: how old the folder's files are (pruned before asking)."""
    poll_seconds: float = POLL_SECONDS
    report_every: float = REPORT_EVERY_SECONDS

    async def wait(
        self,
        request: SpendRequest,
        *,
        profile: str,
        origin: str,
        account: SpendAccount,
        requote: Requote,
    ) -> Approved:
        """Ask the app and wait until it answers or the timeout passes. Raises DeniedInApp,
        ApprovalTimedOut, ApprovalMismatch; OSError when the request cannot be written."""
        deadline = self.clock() + check_wait_seconds(self.timeout)
        await asyncio.to_thread(prune_approvals, self.desk.folder, self.wall_clock())
        current = request
        while True:
            record = await asyncio.to_thread(
                self.desk.ask,
                current,
                asker=dataclasses.replace(self.asker, at=datetime.now(UTC)),
                wait_seconds=self.timeout,
                profile=profile,
                origin=origin,
                account=account,
            )
            try:
                answer = await self._answer(record, current, deadline)
            except BaseException:
                # Interrupted: withdraw (at once, no await), so no app approves a spend
                # nobody will send.
                self._close(record, current, Verdict.WITHDRAWN)
                raise
            if answer.verdict is Verdict.STALE:
                await asyncio.to_thread(self.desk.update, record, Progress.REQUOTED)
                current = await requote(current)
                continue
            return await self._settle(record, current, account, answer)

    async def _answer(
        self, record: ApprovalRequest, spend: SpendRequest, deadline: float
    ) -> Answer:
        next_report = self.clock()
        while True:
            try:
                answer = await asyncio.to_thread(self.desk.answer_of, record.id)
            except UnreadableApproval:
                answer = None  # refused, not trusted; the timeout still ends the wait
            if answer is not None:
                return answer
            now = self.clock()
            if now >= deadline:
                closed = await asyncio.to_thread(self._close, record, spend, Verdict.TIMED_OUT)
                if closed is not None:
                    return closed
                continue  # an answer came first: read it
            if now >= next_report:
                await self._tell(spend.quote, max(0.0, deadline - now))
                next_report = now + self.report_every
            await self.sleep(self.poll_seconds)

    def _close(
        self, record: ApprovalRequest, spend: SpendRequest, verdict: Verdict
    ) -> Answer | None:
        """The asker's own answer (timed out, withdrawn); None when another answer was first."""
        answer = Answer(
            verdict,
            self.asker,
            spend.idempotency_key,
            canonical_body_hash(spend.body),
            spend.quote.total,
            record.account,
        )
        try:
            if not self.desk.answer(record.id, answer):
                return None
            self.desk.update(record, Progress.NOT_SENT, {"reason": verdict.value})
        except OSError:
            return answer
        return answer

    async def _settle(
        self, record: ApprovalRequest, spend: SpendRequest, account: SpendAccount, answer: Answer
    ) -> Approved:
        if answer.verdict is Verdict.APPROVED and answer.matches(spend, account):
            changed = await asyncio.to_thread(self.desk.update, record, Progress.SENDING)
            return Approved(spend, changed, answer)
        await asyncio.to_thread(
            self.desk.update, record, Progress.NOT_SENT, {"reason": answer.verdict.value}
        )
        raise refusal_of(answer, spend.quote, self.timeout)

    async def _tell(self, quote: Quote, left: float) -> None:
        if self.report is None:
            return
        told = self.report(
            f"Waiting for approval in the running leadtui app (A opens Approvals): "
            f"{quote.total_text()}; {left:.0f} s left."
        )
        if told is not None:
            await told

    def settled(self, approved: Approved, progress: Progress, detail: dict[str, Any]) -> None:
        """Record in the request file what became of the approved spend (blocking)."""
        # The journal holds the outcome; the file only tells the app.
        with contextlib.suppress(OSError):
            self.desk.update(approved.record, progress, detail)
