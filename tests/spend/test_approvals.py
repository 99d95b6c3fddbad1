"""The approval store and the asker's wait: files, one answer only, and every way a wait ends."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import stat
from pathlib import Path

import pytest

from leadtui.spend.approval_records import Answer, Party, Progress, Verdict
from leadtui.spend.approval_wait import (
    ApprovalMismatch,
    ApprovalTimedOut,
    DeniedInApp,
    InAppApproval,
    check_wait_seconds,
)
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from leadtui.spend.journal import canonical_body_hash
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import DEMO, LOW
from tests.support import spend_requests

ORIGIN = "http://localhost"


def unlock(results: int = 40, balance: int = 10_000) -> SpendRequest:
    return spend_requests.unlock("srch_1", results, price_per_result=1, balance=balance)


def app_party() -> Party:
    return Party.here("app", "leadtui app")


def answer(request: SpendRequest, verdict: Verdict = Verdict.APPROVED, **changes: object) -> Answer:
    made = Answer(
        verdict,
        app_party(),
        request.idempotency_key,
        canonical_body_hash(request.body),
        request.quote.total,
        DEMO,
        request.quote.to_json(),
    )
    return dataclasses.replace(made, **changes)  # type: ignore[arg-type]


@pytest.fixture
def desk(tmp_path: Path) -> ApprovalDesk:
    return ApprovalDesk(approvals_folder(tmp_path / "state" / "journal.sqlite3"))


def ask(desk: ApprovalDesk, request: SpendRequest) -> str:
    record = desk.ask(
        request,
        asker=Party.here("cli", "command line"),
        wait_seconds=120,
        profile="default",
        origin=ORIGIN,
        account=DEMO,
    )
    return record.id


def test_a_request_is_a_private_file_beside_the_journal_naming_who_asks_and_what(
    desk: ApprovalDesk, tmp_path: Path
) -> None:
    request = unlock()
    request_id = ask(desk, request)

    path = tmp_path / "state" / "approvals" / f"{request_id}.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    doc = json.loads(path.read_text())
    assert doc["asker"]["name"] == "command line"
    assert doc["asker"]["pid"] == os.getpid()
    assert doc["spend"]["idempotency_key"] == request.idempotency_key
    assert doc["spend"]["body_sha256"] == canonical_body_hash(request.body)
    assert doc["quote"]["total"] == 40
    assert doc["account"]["id"] == "acct_demo"
    read = desk.get(request_id)
    assert read is not None
    assert read.open
    assert read.quote.to_json() == request.quote.to_json()


def test_of_two_answers_only_the_first_counts(desk: ApprovalDesk) -> None:
    request = unlock()
    request_id = ask(desk, request)

    assert desk.answer(request_id, answer(request)) is True
    assert desk.answer(request_id, answer(request, Verdict.DENIED)) is False
    read = desk.get(request_id)
    assert read is not None
    assert read.answer is not None
    assert read.answer.verdict is Verdict.APPROVED
    assert not read.open


def test_files_that_cannot_be_trusted_are_listed_as_refused(desk: ApprovalDesk) -> None:
    good = ask(desk, unlock())
    shared = ask(desk, unlock())
    os.chmod(desk.folder / f"{shared}.json", 0o644)
    (desk.folder / "abc.json").write_text("not json")
    os.chmod(desk.folder / "abc.json", 0o600)
    os.symlink(desk.folder / f"{good}.json", desk.folder / "linked.json")

    requests, refused = desk.requests()

    assert [r.id for r in requests] == [good]
    reasons = dict(refused)
    assert "read or written by others" in reasons[shared]
    assert "not JSON" in reasons["abc"]
    assert "linked" in reasons


def test_a_wait_is_more_than_nothing_and_at_most_fifteen_minutes() -> None:
    assert check_wait_seconds(900) == 900
    for bad in (0, -1, 901):
        with pytest.raises(ValueError, match="at most 900 seconds"):
            check_wait_seconds(bad)


class Waiting:
    """The asker's injected clock and sleep; `on_sleep` plays the app between two looks."""

    def __init__(self, desk: ApprovalDesk) -> None:
        self.desk = desk
        self.now = 0.0
        self.lines: list[str] = []
        self.on_sleep: list[object] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        if self.on_sleep:
            step = self.on_sleep.pop(0)
            if callable(step):
                step()

    def approval(self, timeout: float = 120.0) -> InAppApproval:
        return InAppApproval(
            self.desk,
            Party.here("cli", "command line"),
            timeout=timeout,
            sleep=self.sleep,
            clock=self.clock,
            report=self.lines.append,
        )

    def open_request(self) -> str:
        requests, _ = self.desk.requests()
        waiting = [r for r in requests if r.open]
        assert len(waiting) == 1, requests
        return waiting[0].id


async def never_requoted(request: SpendRequest) -> SpendRequest:
    raise AssertionError("not stale")


async def test_an_approval_returns_the_spend_this_process_holds(desk: ApprovalDesk) -> None:
    waiting = Waiting(desk)
    request = unlock()
    waiting.on_sleep = [lambda: desk.answer(waiting.open_request(), answer(request))]

    approved = await waiting.approval().wait(
        request, profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
    )

    assert approved.request is request
    assert approved.answer.by.name == "leadtui app"
    assert approved.record.progress is Progress.SENDING
    assert "Waiting for approval in the running leadtui app" in waiting.lines[0]


async def test_a_denial_refuses_with_the_quote(desk: ApprovalDesk) -> None:
    waiting = Waiting(desk)
    request = unlock()
    waiting.on_sleep = [
        None,
        lambda: desk.answer(waiting.open_request(), answer(request, Verdict.DENIED)),
    ]

    with pytest.raises(DeniedInApp) as refused:
        await waiting.approval().wait(
            request, profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
        )

    assert refused.value.code == "denied_in_app"
    assert refused.value.quote == request.quote
    record = desk.requests()[0][0]
    assert record.progress is Progress.NOT_SENT


async def test_no_answer_times_out_and_a_late_approval_counts_for_nothing(
    desk: ApprovalDesk,
) -> None:
    waiting = Waiting(desk)
    request = unlock()

    with pytest.raises(ApprovalTimedOut) as refused:
        await waiting.approval(timeout=3).wait(
            request, profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
        )

    assert refused.value.code == "approval_timeout"
    assert waiting.now == pytest.approx(3.0)
    record = desk.requests()[0][0]
    assert record.answer is not None
    assert record.answer.verdict is Verdict.TIMED_OUT
    assert desk.answer(record.id, answer(request)) is False


async def test_a_stale_quote_is_quoted_again_and_asked_anew(desk: ApprovalDesk) -> None:
    waiting = Waiting(desk)
    first = unlock(balance=10_000)
    fresh = dataclasses.replace(unlock(balance=9_000), idempotency_key=first.idempotency_key)

    async def requote(request: SpendRequest) -> SpendRequest:
        assert request is first
        return fresh

    waiting.on_sleep = [
        lambda: desk.answer(waiting.open_request(), answer(first, Verdict.STALE)),
        lambda: desk.answer(waiting.open_request(), answer(fresh)),
    ]

    approved = await waiting.approval().wait(
        first, profile="default", origin=ORIGIN, account=DEMO, requote=requote
    )

    assert approved.request is fresh
    progress = sorted(r.progress for r in desk.requests()[0])
    assert progress == sorted([Progress.REQUOTED, Progress.SENDING])


@pytest.mark.parametrize(
    "changes",
    [{"total": 400}, {"account": LOW}, {"body_sha256": canonical_body_hash({"x": 1})}],
    ids=["a bigger amount", "another account", "another body"],
)
async def test_an_approval_of_another_spend_is_refused(
    desk: ApprovalDesk, changes: dict[str, object]
) -> None:
    waiting = Waiting(desk)
    request = unlock()
    waiting.on_sleep = [lambda: desk.answer(waiting.open_request(), answer(request, **changes))]

    with pytest.raises(ApprovalMismatch) as refused:
        await waiting.approval().wait(
            request, profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
        )

    assert refused.value.code == "approval_mismatch"


async def test_an_interrupted_wait_withdraws_its_request(desk: ApprovalDesk) -> None:
    waiting = Waiting(desk)

    async def interrupted(_seconds: float) -> None:
        raise asyncio.CancelledError

    approval = waiting.approval()
    approval.sleep = interrupted
    with pytest.raises(asyncio.CancelledError):
        await approval.wait(
            unlock(), profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
        )

    record = desk.requests()[0][0]
    assert record.answer is not None
    assert record.answer.verdict is Verdict.WITHDRAWN
