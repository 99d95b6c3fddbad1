"""The approval rows of the journal: bound to their spend, one answer only, readable or
refused, aged out on the caller's clock, and an existing journal upgraded in place."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from leadtui.spend.approvals import (
    KEEP_APPROVED_SECONDS,
    KEEP_SECONDS,
    Answer,
    ApprovalDesk,
    Party,
    Progress,
    Ruling,
)
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import DEMO, LOW
from tests.support import spend_requests

ORIGIN = "http://localhost"
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z
DAY = 24 * 3600.0


def unlock(results: int = 40, balance: int = 10_000, search_id: str = "srch_1") -> SpendRequest:
    return spend_requests.unlock(search_id, results, price_per_result=1, balance=balance)


def answer(request: SpendRequest, verdict: Ruling = Ruling.APPROVED, **changes: object) -> Answer:
    made = Answer(
        verdict,
        Party.here("app", "leadtui app"),
        request.idempotency_key,
        request.request_hash,
        request.quote.total,
        DEMO,
    )
    return dataclasses.replace(made, **changes)  # type: ignore[arg-type]


@pytest.fixture
def desk(journal: SpendJournal) -> ApprovalDesk:
    return ApprovalDesk(journal)


def ask(desk: ApprovalDesk, request: SpendRequest, asker: Party | None = None) -> str:
    record = desk.ask(
        request,
        asker=asker or Party.here("cli", "command line"),
        wait_seconds=120,
        profile="default",
        origin=ORIGIN,
        account=DEMO,
    )
    return record.id


def test_a_request_is_a_row_of_the_private_journal_bound_to_its_spend(
    desk: ApprovalDesk, journal: SpendJournal
) -> None:
    request = unlock()
    request_id = ask(desk, request)

    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    read = desk.get(request_id)
    assert read is not None
    assert (read.idempotency_key, read.request_hash) == (
        request.idempotency_key,
        request.request_hash,
    )
    assert read.asker.name == "command line"
    assert read.asker.pid == os.getpid()
    assert read.account.same_as(DEMO)
    assert read.quote.to_json() == request.quote.to_json()
    assert read.progress is Progress.WAITING
    assert read.answer is None


def test_of_two_answers_only_the_first_counts(desk: ApprovalDesk) -> None:
    request = unlock()
    request_id = ask(desk, request)

    assert desk.answer(request_id, answer(request)) is True
    assert desk.answer(request_id, answer(request, Ruling.DENIED)) is False
    read = desk.get(request_id)
    assert read is not None
    assert read.answer is not None
    assert read.answer.verdict is Ruling.APPROVED


def test_an_answer_names_the_whole_request_not_only_its_body() -> None:
    asked, other = unlock(search_id="srch_1"), unlock(search_id="srch_2")
    other = dataclasses.replace(other, idempotency_key=asked.idempotency_key)

    assert answer(asked).matches(asked, DEMO)
    assert not answer(other).matches(asked, DEMO)  # same key, same body, another search
    assert not answer(asked, total=400).matches(asked, DEMO)
    assert not answer(asked, account=LOW).matches(asked, DEMO)


def test_a_row_changed_into_nonsense_is_listed_as_refused(
    desk: ApprovalDesk, journal: SpendJournal
) -> None:
    good, spoiled = ask(desk, unlock()), ask(desk, unlock())
    with sqlite3.connect(journal.path) as db:
        db.execute("UPDATE approval_requests SET request = 'not json' WHERE id = ?", (spoiled,))

    listed = desk.listed()

    assert [r.id for r in listed.requests] == [good]
    assert [request_id for request_id, _ in listed.refused] == [spoiled]


class CountingJournal(SpendJournal):
    """Counts the statements sent to the file."""

    statements = 0

    def reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._counted(super().reading())

    @contextmanager
    def _counted(
        self, opened: AbstractContextManager[sqlite3.Connection]
    ) -> Iterator[sqlite3.Connection]:
        with opened as db:
            db.set_trace_callback(lambda _sql: self._count())
            yield db

    def _count(self) -> None:
        self.statements += 1


def test_a_thousand_requests_are_listed_by_one_query(tmp_path: Path) -> None:
    journal = CountingJournal(tmp_path / "journal.sqlite3")
    desk = ApprovalDesk(journal)
    for _ in range(1_000):
        ask(desk, unlock())
    journal.statements = 0

    listed = desk.listed()

    assert len(listed.requests) == 1_000
    assert journal.statements == 1


def test_a_journal_written_before_approvals_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    earlier = SpendJournal(path)
    earlier.record_intent(
        idempotency_key="k" * 32,
        operation=unlock().operation,
        params=dict(unlock().params),
        body=unlock().body,
        amount=40,
        profile="default",
        origin=ORIGIN,
        account=DEMO,
    )
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE approval_answers")
        db.execute("DROP TABLE approval_requests")

    desk = ApprovalDesk(SpendJournal(path))
    request_id = ask(desk, unlock())

    assert desk.get(request_id) is not None
    assert [i.idempotency_key for i in SpendJournal(path).history()] == ["k" * 32]


def test_old_request_files_and_fifos_beside_the_journal_are_never_read(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "approvals"
    folder.mkdir()
    (folder / "0123abcd.json").write_text('{"id": "0123abcd"}')
    os.mkfifo(folder / "fifo.json")
    os.mkfifo(folder / "fifo.answer.json")
    os.mkfifo(tmp_path / "journal.sqlite3.approvals")
    desk = ApprovalDesk(SpendJournal(tmp_path / "journal.sqlite3"))

    assert desk.listed().requests == []
    request_id = ask(desk, unlock())
    assert [r.id for r in desk.listed().requests] == [request_id]


def _ended_pid() -> int:
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    return ended.pid


def _aged(
    tmp_path: Path,
    *,
    verdict: Ruling | None = None,
    progress: Progress | None = None,
    pid: int | None = None,
    at: float = NOW - 2 * DAY,
) -> str:
    """A request asked and last changed at `at` (by this process, or `pid`)."""
    desk = ApprovalDesk(SpendJournal(tmp_path / "journal.sqlite3", clock=lambda: at))
    asker = Party.here("cli", "command line")
    asker = dataclasses.replace(asker, pid=pid or asker.pid)
    request = unlock()
    request_id = ask(desk, request, asker)
    if verdict is not None:
        desk.answer(request_id, answer(request, verdict))
    record = desk.get(request_id)
    if progress is not None and record is not None:
        desk.update(record, progress)
    return request_id


def test_old_rows_age_out_by_the_rules_and_on_the_callers_clock(tmp_path: Path) -> None:
    gone = _ended_pid()
    denied = _aged(tmp_path, verdict=Ruling.DENIED)
    approved = _aged(tmp_path, verdict=Ruling.APPROVED)
    approved_long_ago = _aged(tmp_path, verdict=Ruling.APPROVED, at=NOW - 31 * DAY)
    abandoned = _aged(tmp_path, pid=gone)
    sending = _aged(tmp_path, verdict=Ruling.APPROVED, progress=Progress.SENDING, at=NOW - 40 * DAY)
    fresh = _aged(tmp_path, verdict=Ruling.DENIED, at=NOW - KEEP_SECONDS + 60)
    desk = ApprovalDesk(SpendJournal(tmp_path / "journal.sqlite3"))

    assert desk.prune(NOW) == 3

    left = {r.id for r in desk.listed().requests}
    assert left == {approved, sending, fresh}
    assert {denied, approved_long_ago, abandoned}.isdisjoint(left)
    assert desk.prune(NOW + KEEP_APPROVED_SECONDS) == 2  # the sender lives: it stays
    assert {r.id for r in desk.listed().requests} == {sending}
