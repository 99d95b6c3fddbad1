"""Asking the running app: the one routine the command line and the tool server both call.

A surface that cannot ask anyone calls `InAppApproval.wait` on an "ask": it writes a request
row, waits, and returns the spend approved (exactly the one it holds) or raises an
`ApprovalRefused` with the quote and its code. A stale quote is quoted again and asked anew
within the same overall timeout; SIGINT or SIGTERM withdraws the request (`interrupted`). The
caller sends the approved spend through the spend core, which checks it once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from leadtui.api.client import LeadClient
from leadtui.spend.account import SpendAccount
from leadtui.spend.approvals import (
    DEFAULT_WAIT_SECONDS,
    MAX_WAIT_SECONDS,
    Answer,
    ApprovalDesk,
    ApprovalRequest,
    Party,
    Progress,
    Ruling,
    UnreadableApproval,
)
from leadtui.spend.decision import Authorization, Surface, Verdict, refusal
from leadtui.spend.errors import Code, JournalError, SpendBlocked
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.origin import spend_origin
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest

POLL_SECONDS: Final = 0.5
REPORT_EVERY_SECONDS: Final = 10.0
_SIGNALS: Final = tuple(s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None)) if s)


class ApprovalRefused(SpendBlocked):
    """No yes came from the app: nothing was sent; shown as "title: message" (`headline`)."""

    def __init__(self, message: str, quote: Quote, *, waited: float) -> None:
        super().__init__(message)
        self.quote = quote
        self.waited = waited
        """How long the asker was to wait, in seconds (its timeout)."""

    @property
    def headline(self) -> str:
        return f"{self.title}: {self.message}"


class DeniedInApp(ApprovalRefused):
    title = "Denied in the app"
    code = Code.DENIED_IN_APP


class ApprovalTimedOut(ApprovalRefused):
    title = "No answer from the app"
    code = Code.APPROVAL_TIMEOUT


class ApprovalMismatch(ApprovalRefused):
    """The answer is not about the spend this process holds (its request was changed)."""

    title = "Approval does not match"
    code = Code.APPROVAL_MISMATCH


class ApprovalInterrupted(ApprovalRefused):
    """SIGINT or SIGTERM while waiting: the request was withdrawn."""

    title = "Interrupted"
    code = Code.INTERRUPTED


def check_wait_seconds(seconds: float) -> float:
    """A caller's timeout: more than 0 and at most 15 minutes. Raises ValueError."""
    if not 0 < seconds <= MAX_WAIT_SECONDS:
        raise ValueError(f"must be more than 0 and at most {MAX_WAIT_SECONDS:.0f} seconds")
    return seconds


# The waits under way in this process, each with the signals it was told of: one handler for
# them all, installed while any waits (two tool calls may wait at once), the process's own
# handling put back when the last one ends.
_WAITS: dict[int, list[int]] = {}
_BEFORE: dict[int, Any] = {}
_WHEN_ENDED: list[asyncio.Event] = []


def _tell_the_waits(signum: int, _frame: object) -> None:
    for noted in _WAITS.values():
        noted.append(signum)


@contextlib.contextmanager
def _signals_noted(noted: list[int]) -> Iterator[None]:
    """SIGINT and SIGTERM, while waiting, end the wait (noted here, read by the poll); only
    the main thread can set a handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted.clear()
    if not _WAITS:
        for sig in _SIGNALS:
            _BEFORE[sig] = signal.getsignal(sig)
            signal.signal(sig, _tell_the_waits)
    _WAITS[id(noted)] = noted
    try:
        yield
    finally:
        del _WAITS[id(noted)]
        if not _WAITS:
            for sig, handler in _BEFORE.items():
                signal.signal(sig, handler)
            _BEFORE.clear()
            for ended in _WHEN_ENDED:
                ended.set()
            _WHEN_ENDED.clear()


async def end_waits(signum: int) -> None:
    """For a process stopping on `signum` by its own handler: every wait withdraws its request
    and answers `interrupted`; returns once they ended and their answers had a poll to go out."""
    if not _WAITS:
        return
    ended = asyncio.Event()
    _WHEN_ENDED.append(ended)
    _tell_the_waits(signum, None)
    await ended.wait()
    await asyncio.sleep(POLL_SECONDS)


@dataclass(frozen=True)
class Approved:
    """The spend a person approved in the app, and its request row (for the outcome)."""

    request: SpendRequest
    record: ApprovalRequest
    answer: Answer


@dataclass
class InAppApproval:
    """How a surface that cannot ask waits for the running app's answer."""

    gate: SpendGate
    client: LeadClient
    asker: Party
    timeout: float = DEFAULT_WAIT_SECONDS
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    report: Callable[[str], Awaitable[None] | None] | None = None
    """Told how the wait goes (a line on stderr, an MCP progress notification)."""
    poll_seconds: float = POLL_SECONDS
    _signalled: list[int] = field(default_factory=list, init=False)

    @property
    def desk(self) -> ApprovalDesk:
        return ApprovalDesk(self.gate.journal)

    async def wait(self, request: SpendRequest) -> Approved:
        """Ask the app and wait until it answers or the timeout passes. Raises an
        ApprovalRefused; SpendRefused when a fresh quote is refused; JournalError."""
        deadline = self.clock() + check_wait_seconds(self.timeout)
        account = await self.gate.account_of(self.client)
        await asyncio.to_thread(self.desk.prune)
        current = request
        with _signals_noted(self._signalled):
            while True:
                record = await asyncio.to_thread(
                    self.desk.ask,
                    current,
                    asker=Party.here(self.asker.surface, self.asker.name),
                    wait_seconds=self.timeout,
                    profile=self.gate.profile,
                    origin=spend_origin(self.client.base_url),
                    account=account,
                )
                try:
                    answer = await self._answer(record, current, deadline)
                except BaseException:
                    # Cancelled: withdraw at once (no await), so no app approves a spend
                    # nobody will send; the cancellation, not a journal fault, is reported.
                    with contextlib.suppress(JournalError):
                        self._close(record, current, Ruling.WITHDRAWN)
                    raise
                if answer.verdict is not Ruling.STALE:
                    return await self._settle(record, current, account, answer)
                await asyncio.to_thread(self.desk.update, record, Progress.REQUOTED)
                # The app quotes with the same decision: a quote that did not move reads the same.
                asker = Authorization(Surface(self.asker.surface))
                fresh = await self.gate.decide(current, self.client, asker)
                if fresh.verdict is Verdict.REFUSE:
                    raise refusal(fresh)
                current = dataclasses.replace(current, quote=fresh.quote)

    async def _answer(
        self, record: ApprovalRequest, spend: SpendRequest, deadline: float
    ) -> Answer:
        next_report = self.clock()
        while True:
            try:
                read = await asyncio.to_thread(self.desk.get, record.id)
            except UnreadableApproval:
                read = None  # changed by hand: never trusted; the timeout still ends it
            if read is not None and read.answer is not None:
                return read.answer
            now = self.clock()
            ended = Ruling.WITHDRAWN if self._signalled else None
            if ended is None and now >= deadline:
                ended = Ruling.TIMED_OUT
            if ended is not None:
                closed = await asyncio.to_thread(self._close, record, spend, ended)
                if closed is not None:
                    return closed
                continue  # an answer came first: read it
            if now >= next_report:
                await self._tell(spend.quote, max(0.0, deadline - now))
                next_report = now + REPORT_EVERY_SECONDS
            await self.sleep(self.poll_seconds)

    def _close(
        self, record: ApprovalRequest, spend: SpendRequest, verdict: Ruling
    ) -> Answer | None:
        """The asker's own answer (timed out, withdrawn); None when another answer was first."""
        answer = Answer(
            verdict,
            self.asker,
            spend.idempotency_key,
            spend.request_hash,
            spend.quote.total,
            record.account,
        )
        if not self.desk.answer(record.id, answer):
            return None
        self.desk.update(record, Progress.NOT_SENT, {"reason": verdict.value})
        return answer

    async def _settle(
        self, record: ApprovalRequest, spend: SpendRequest, account: SpendAccount, answer: Answer
    ) -> Approved:
        if answer.verdict is Ruling.APPROVED and answer.matches(spend, account):
            changed = await asyncio.to_thread(self.desk.update, record, Progress.SENDING)
            return Approved(spend, changed, answer)
        reason = "mismatch" if answer.verdict is Ruling.APPROVED else answer.verdict.value
        await asyncio.to_thread(self.desk.update, record, Progress.NOT_SENT, {"reason": reason})
        raise self._refusal(answer, spend.quote)

    def _refusal(self, answer: Answer, quote: Quote) -> ApprovalRefused:
        total, who = quote.total_text(), answer.by.label
        kind: type[ApprovalRefused] = ApprovalTimedOut
        text = f"nobody answered within {self.timeout:.0f} s ({total} asked)."
        if answer.verdict is Ruling.APPROVED:
            kind = ApprovalMismatch
            text = (
                f"the approval by {who} names another spend than the {total} this process "
                "asked (the request was changed)."
            )
        elif answer.verdict is Ruling.DENIED:
            kind, text = DeniedInApp, f"{who} said no to {total}."
        elif answer.verdict is Ruling.WITHDRAWN:
            kind = ApprovalInterrupted
            text = (
                "the wait for the app's answer was interrupted; the request is withdrawn "
                f"({total} asked)."
            )
        return kind(f"{text} Nothing was sent.", quote, waited=self.timeout)

    async def _tell(self, quote: Quote, left: float) -> None:
        if self.report is None:
            return
        told = self.report(
            f"Waiting for approval in the running leadtui app (A opens Approvals): "
            f"{quote.total_text()}; {left:.0f} s left."
        )
        if told is not None:
            await told


@contextlib.asynccontextmanager
async def told_to_the_app(
    journal_path: Path | None,
    approved: Approved | None,
    failure_code: Callable[[BaseException], str | None],
) -> AsyncIterator[None]:
    """Around the send of a spend approved in the app: its request row says how it ended (the
    journal's spend row holds the outcome; the request only tells the app). `failure_code` is
    the code of a surface's own failure, None for anything else (cut short mid-send)."""
    if approved is None:
        yield
        return
    desk = ApprovalDesk(SpendJournal(journal_path))

    def ended(progress: Progress, code: str) -> None:
        with contextlib.suppress(JournalError):
            desk.update(approved.record, progress, {"code": code})

    try:
        yield
    except BaseException as exc:
        code = failure_code(exc)
        if code is None:
            # Cancelled mid-send: whether it went through is the journal's to say.
            ended(Progress.UNKNOWN, ApprovalInterrupted.code)
        else:
            unknown = code == Code.OUTCOME_UNKNOWN
            await asyncio.to_thread(ended, Progress.UNKNOWN if unknown else Progress.NOT_SENT, code)
        raise
    await asyncio.to_thread(ended, Progress.SENT, "sent")
