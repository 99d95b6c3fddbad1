"""The asker's wait, against the sandbox: every way it ends, and a stale quote asked again
at the price and balance the app quotes too."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
from collections.abc import Callable
from typing import Any

import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.approval_wait import (
    ApprovalInterrupted,
    ApprovalMismatch,
    ApprovalTimedOut,
    DeniedInApp,
    InAppApproval,
    check_wait_seconds,
    told_to_the_app,
)
from leadtui.spend.approvals import ApprovalDesk, Party, Progress, Ruling
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import LOW, SEARCH, gate
from tests.spend.test_approval_rows import answer
from tests.support import spend_requests


def test_a_wait_is_more_than_nothing_and_at_most_fifteen_minutes() -> None:
    assert check_wait_seconds(900) == 900
    for bad in (0, -1, 901):
        with pytest.raises(ValueError, match="at most 900 seconds"):
            check_wait_seconds(bad)


class Waiting:
    """The asker's injected clock and sleep; `on_sleep` plays the app between two looks."""

    def __init__(self, journal: SpendJournal, client: LeadClient) -> None:
        self.desk = ApprovalDesk(journal)
        self.journal = journal
        self.client = client
        self.now = 0.0
        self.lines: list[str] = []
        self.on_sleep: list[Callable[[], Any] | None] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        if self.on_sleep:
            step = self.on_sleep.pop(0)
            if step is not None:
                done = step()
                if asyncio.iscoroutine(done):
                    await done

    def approval(self, timeout: float = 120.0) -> InAppApproval:
        return InAppApproval(
            gate(self.journal),
            self.client,
            Party.here("cli", "command line"),
            timeout=timeout,
            sleep=self.sleep,
            clock=self.clock,
            report=self.lines.append,
        )

    def open_request(self) -> str:
        waiting = [r for r in self.desk.listed().requests if r.progress is Progress.WAITING]
        waiting = [r for r in waiting if r.answer is None]
        assert len(waiting) == 1, waiting
        return waiting[0].id

    def answer_open(
        self, request: SpendRequest, verdict: Ruling = Ruling.APPROVED, **changes: object
    ) -> None:
        self.desk.answer(self.open_request(), answer(request, verdict, **changes))


@pytest.fixture
async def quoted(journal: SpendJournal, client: LeadClient) -> SpendRequest:
    """An unlock of 40 results of a fresh search, quoted as a surface quotes it."""
    search = await client.searches.create(SEARCH)
    request = spend_requests.unlock(search.searchId, 40)
    decided = await gate(journal).decide(request, client, Authorization(Surface.CLI))
    return dataclasses.replace(request, quote=decided.quote)


@pytest.fixture
def waiting(journal: SpendJournal, client: LeadClient) -> Waiting:
    return Waiting(journal, client)


async def test_an_approval_returns_the_spend_this_process_holds(
    waiting: Waiting, quoted: SpendRequest
) -> None:
    waiting.on_sleep = [lambda: waiting.answer_open(quoted)]

    approved = await waiting.approval().wait(quoted)

    assert approved.request is quoted
    assert approved.answer.by.name == "leadtui app"
    assert approved.record.progress is Progress.SENDING
    assert "Waiting for approval in the running leadtui app" in waiting.lines[0]


async def test_a_denial_refuses_with_the_quote(waiting: Waiting, quoted: SpendRequest) -> None:
    waiting.on_sleep = [None, lambda: waiting.answer_open(quoted, Ruling.DENIED)]

    with pytest.raises(DeniedInApp) as refused:
        await waiting.approval().wait(quoted)

    assert refused.value.code == "denied_in_app"
    assert refused.value.quote == quoted.quote
    assert waiting.desk.listed().requests[0].progress is Progress.NOT_SENT


async def test_no_answer_times_out_and_a_late_approval_counts_for_nothing(
    waiting: Waiting, quoted: SpendRequest
) -> None:
    with pytest.raises(ApprovalTimedOut) as refused:
        await waiting.approval(timeout=3).wait(quoted)

    assert refused.value.code == "approval_timeout"
    assert waiting.now == pytest.approx(3.0)
    [record] = waiting.desk.listed().requests
    assert record.answer is not None
    assert record.answer.verdict is Ruling.TIMED_OUT
    assert waiting.desk.answer(record.id, answer(quoted)) is False


async def test_a_stale_quote_is_quoted_again_and_asked_anew(
    waiting: Waiting, quoted: SpendRequest, sandbox_http: Any
) -> None:
    async def spent_elsewhere_then_stale() -> None:
        await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"credits": 9_000})
        waiting.answer_open(quoted, Ruling.STALE)

    def approve_the_fresh_one() -> None:
        [fresh] = [r for r in waiting.desk.listed().requests if r.answer is None]
        assert fresh.quote.balance == 9_000
        again = dataclasses.replace(quoted, quote=fresh.quote)
        waiting.answer_open(again)

    waiting.on_sleep = [spent_elsewhere_then_stale, approve_the_fresh_one]

    approved = await waiting.approval().wait(quoted)

    assert approved.request.idempotency_key == quoted.idempotency_key
    assert approved.request.quote.balance == 9_000
    progress = sorted(r.progress for r in waiting.desk.listed().requests)
    assert progress == sorted([Progress.REQUOTED, Progress.SENDING])


@pytest.mark.parametrize(
    "changes",
    [
        {"total": 400},
        {"account": LOW},
        {"request_hash": spend_requests.unlock("srch_other", 40).request_hash},
    ],
    ids=["a bigger amount", "another account", "another search"],
)
async def test_an_approval_of_another_spend_is_refused_and_marked_so(
    waiting: Waiting, quoted: SpendRequest, changes: dict[str, object]
) -> None:
    waiting.on_sleep = [lambda: waiting.answer_open(quoted, **changes)]

    with pytest.raises(ApprovalMismatch) as refused:
        await waiting.approval().wait(quoted)

    assert refused.value.code == "approval_mismatch"
    [record] = waiting.desk.listed().requests
    assert (record.progress, record.detail["reason"]) == (Progress.NOT_SENT, "mismatch")


async def test_a_cancelled_wait_withdraws_its_request(
    waiting: Waiting, quoted: SpendRequest
) -> None:
    async def cancelled(_seconds: float) -> None:
        raise asyncio.CancelledError

    approval = waiting.approval()
    approval.sleep = cancelled
    with pytest.raises(asyncio.CancelledError):
        await approval.wait(quoted)

    [record] = waiting.desk.listed().requests
    assert record.answer is not None
    assert record.answer.verdict is Ruling.WITHDRAWN


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_signal_while_waiting_withdraws_and_answers_interrupted(
    waiting: Waiting, quoted: SpendRequest, signum: int
) -> None:
    before = signal.getsignal(signum)
    waiting.on_sleep = [lambda: os.kill(os.getpid(), signum)]

    with pytest.raises(ApprovalInterrupted) as refused:
        await waiting.approval().wait(quoted)

    assert refused.value.code == "interrupted"
    [record] = waiting.desk.listed().requests
    assert record.answer is not None
    assert record.answer.verdict is Ruling.WITHDRAWN
    assert signal.getsignal(signum) is before  # the process's own handling is back


async def test_two_waits_at_once_each_hear_a_signal_and_the_handler_comes_back_after_both(
    journal: SpendJournal, client: LeadClient, quoted: SpendRequest
) -> None:
    before = signal.getsignal(signal.SIGTERM)
    first, second = Waiting(journal, client), Waiting(journal, client)
    other = dataclasses.replace(quoted, idempotency_key="second-wait-key-0001")
    # The first is approved and ends; the second, still waiting, is stopped only then.
    first_ended = asyncio.Event()

    async def first_wait() -> object:
        try:
            return await first.approval().wait(quoted)
        finally:
            first_ended.set()

    async def stop_once_the_first_ended() -> None:
        await first_ended.wait()
        os.kill(os.getpid(), signal.SIGTERM)

    first.on_sleep = [lambda: first.desk.answer(_open(first, quoted), answer(quoted))]
    second.on_sleep = [stop_once_the_first_ended]

    approved, interrupted = await asyncio.gather(
        first_wait(), second.approval().wait(other), return_exceptions=True
    )

    assert not isinstance(approved, BaseException)
    assert isinstance(interrupted, ApprovalInterrupted)
    assert signal.getsignal(signal.SIGTERM) is before


def _open(waiting: Waiting, request: SpendRequest) -> str:
    [found] = [
        r
        for r in waiting.desk.listed().requests
        if r.idempotency_key == request.idempotency_key and r.answer is None
    ]
    return found.id


class _SurfaceFailure(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _code_of(exc: BaseException) -> str | None:
    return exc.code if isinstance(exc, _SurfaceFailure) else None


@pytest.mark.parametrize(
    ("raised", "progress", "code"),
    [
        (None, Progress.SENT, "sent"),
        (_SurfaceFailure("insufficient_credits"), Progress.NOT_SENT, "insufficient_credits"),
        (_SurfaceFailure("outcome_unknown"), Progress.UNKNOWN, "outcome_unknown"),
        (asyncio.CancelledError(), Progress.UNKNOWN, "interrupted"),
    ],
)
async def test_the_app_is_told_how_an_approved_send_ended(
    waiting: Waiting,
    quoted: SpendRequest,
    raised: BaseException | None,
    progress: Progress,
    code: str,
) -> None:
    waiting.on_sleep = [lambda: waiting.answer_open(quoted)]
    approved = await waiting.approval().wait(quoted)

    with pytest.raises(type(raised)) if raised else contextlib.nullcontext():
        async with told_to_the_app(waiting.journal.path, approved, _code_of):
            if raised is not None:
                raise raised

    [record] = waiting.desk.listed().requests
    assert (record.progress, record.detail["code"]) == (progress, code)
