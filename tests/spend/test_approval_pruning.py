"""Old approval files go, on the caller's clock; what is still waited on, sent, unreadable,
linked or another user's never does."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from leadtui.spend import approval_pruning
from leadtui.spend.approval_pruning import KEEP_APPROVED_SECONDS, KEEP_SECONDS, prune_approvals
from leadtui.spend.approval_records import Party, Progress, Verdict
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from tests.spend.conftest import DEMO
from tests.spend.test_approvals import ORIGIN, Waiting, answer, never_requoted, unlock

NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z, the clock every age is read on
HOUR = 3600.0
DAY = 24 * HOUR


@pytest.fixture
def desk(tmp_path: Path) -> ApprovalDesk:
    return ApprovalDesk(approvals_folder(tmp_path / "state" / "journal.sqlite3"))


def _ended_pid() -> int:
    """The process id of a process that has ended (its asker is known to be gone)."""
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    return ended.pid


def _asked(
    desk: ApprovalDesk,
    *,
    at: float = NOW - 2 * DAY,
    pid: int | None = None,
    verdict: Verdict | None = None,
    progress: Progress | None = None,
    touched: float | None = None,
) -> str:
    """A request asked at `at` (by this process, or `pid`), answered with `verdict`, its
    files last touched at `touched` (default: when asked)."""
    asker = Party.here("cli", "command line", datetime.fromtimestamp(at, UTC))
    if pid is not None:
        asker = dataclasses.replace(asker, pid=pid)
    request = unlock()
    record = desk.ask(
        request, asker=asker, wait_seconds=120, profile="default", origin=ORIGIN, account=DEMO
    )
    if verdict is not None:
        desk.answer(record.id, answer(request, verdict))
    if progress is not None:
        desk.update(record, progress)
    for name in (f"{record.id}.json", f"{record.id}.answer.json"):
        if (desk.folder / name).exists():
            os.utime(desk.folder / name, (touched or at, touched or at))
    return record.id


def _left(desk: ApprovalDesk) -> set[str]:
    return {path.name for path in desk.folder.iterdir()}


def test_answered_requests_go_with_their_answers_after_a_day(desk: ApprovalDesk) -> None:
    denied = _asked(desk, verdict=Verdict.DENIED, touched=NOW - KEEP_SECONDS - 1)
    timed_out = _asked(desk, verdict=Verdict.TIMED_OUT, touched=NOW - KEEP_SECONDS - 1)
    recent = _asked(desk, verdict=Verdict.DENIED, touched=NOW - KEEP_SECONDS + HOUR)

    pruned = prune_approvals(desk.folder, NOW)

    assert _left(desk) == {f"{recent}.json", f"{recent}.answer.json"}
    assert set(pruned.removed) == {
        f"{denied}.json",
        f"{denied}.answer.json",
        f"{timed_out}.json",
        f"{timed_out}.answer.json",
    }
    assert pruned.kept[f"{recent}.json"] == "touched 23.0 h ago"


def test_an_approved_request_stays_thirty_days_for_history_and_pending(
    desk: ApprovalDesk,
) -> None:
    month_old = _asked(
        desk, verdict=Verdict.APPROVED, progress=Progress.SENT, touched=NOW - 31 * DAY
    )
    week_old = _asked(desk, verdict=Verdict.APPROVED, progress=Progress.SENT, touched=NOW - 7 * DAY)

    prune_approvals(desk.folder, NOW)

    assert _left(desk) == {f"{week_old}.json", f"{week_old}.answer.json"}
    assert KEEP_APPROVED_SECONDS == 30 * DAY
    assert month_old not in " ".join(_left(desk))


def test_a_request_still_waited_on_stays_however_old_its_file_looks(desk: ApprovalDesk) -> None:
    # Asked ten seconds ago by this (living) process, which waits up to 120 s.
    waited_on = _asked(desk, at=NOW - 10, touched=NOW - 3 * DAY)

    pruned = prune_approvals(desk.folder, NOW)

    assert _left(desk) == {f"{waited_on}.json"}
    assert pruned.kept[f"{waited_on}.json"] == "still waited on"


def test_abandoned_and_expired_requests_go_a_day_later(desk: ApprovalDesk) -> None:
    abandoned = _asked(desk, pid=_ended_pid())  # its asker was killed: nobody answered
    expired = _asked(desk)  # its asker lives, its 120 s passed two days ago
    young = _asked(desk, pid=_ended_pid(), at=NOW - HOUR)

    pruned = prune_approvals(desk.folder, NOW)

    assert _left(desk) == {f"{young}.json"}
    assert set(pruned.removed) == {f"{abandoned}.json", f"{expired}.json"}


def test_a_spend_being_sent_stays_while_its_asker_lives(desk: ApprovalDesk) -> None:
    sending = _asked(
        desk, verdict=Verdict.APPROVED, progress=Progress.SENDING, touched=NOW - 40 * DAY
    )
    killed = _asked(
        desk,
        pid=_ended_pid(),
        verdict=Verdict.APPROVED,
        progress=Progress.SENDING,
        touched=NOW - 40 * DAY,
    )

    prune_approvals(desk.folder, NOW)

    assert _left(desk) == {f"{sending}.json", f"{sending}.answer.json"}
    assert killed not in " ".join(_left(desk))


def test_unreadable_shared_and_linked_files_are_never_removed(
    desk: ApprovalDesk, tmp_path: Path
) -> None:
    readable_by_others = _asked(desk, verdict=Verdict.DENIED)
    os.chmod(desk.folder / f"{readable_by_others}.json", 0o644)
    newer_version = desk.folder / "0123abcd.json"
    newer_version.write_text('{"version": 2}')
    os.chmod(newer_version, 0o600)
    elsewhere = tmp_path / "precious.json"
    elsewhere.write_text("{}")
    os.symlink(elsewhere, desk.folder / "4567cdef.json")
    os.symlink(elsewhere, desk.folder / "89abcdef.answer.json")
    old = NOW - 60 * DAY
    for path in (newer_version, elsewhere, desk.folder / f"{readable_by_others}.json"):
        os.utime(path, (old, old))
    for link in ("4567cdef.json", "89abcdef.answer.json"):
        os.utime(desk.folder / link, (old, old), follow_symlinks=False)
    before = _left(desk)

    pruned = prune_approvals(desk.folder, NOW)

    assert _left(desk) == before
    assert elsewhere.read_text() == "{}"
    assert "may be read or written by others" in pruned.kept[f"{readable_by_others}.json"]
    assert pruned.kept["0123abcd.json"] == "unreadable: spend is not an object"


def test_a_folder_that_is_a_link_is_not_followed(desk: ApprovalDesk, tmp_path: Path) -> None:
    denied = _asked(desk, verdict=Verdict.DENIED)
    linked = tmp_path / "linked-approvals"
    os.symlink(desk.folder, linked)

    pruned = prune_approvals(linked, NOW)

    assert pruned.removed == []
    assert f"{denied}.json" in _left(desk)


def test_another_users_folder_or_file_is_left_alone(
    desk: ApprovalDesk, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = _asked(desk, verdict=Verdict.DENIED)
    mine = _asked(desk, verdict=Verdict.DENIED)
    their_inode = (desk.folder / f"{theirs}.json").stat().st_ino

    # This user's folder, one file in it another user's: that file stays (and its answer).
    monkeypatch.setattr(approval_pruning, "owned_here", lambda info: info.st_ino != their_inode)
    prune_approvals(desk.folder, NOW)
    assert _left(desk) == {f"{theirs}.json", f"{theirs}.answer.json"}

    # Run as another user: nothing in this folder is theirs to prune.
    monkeypatch.undo()
    again = _asked(desk, verdict=Verdict.DENIED)
    monkeypatch.setattr(os, "getuid", lambda: os.geteuid() + 1)
    assert prune_approvals(desk.folder, NOW).removed == []
    assert f"{again}.json" in _left(desk)
    assert mine not in " ".join(_left(desk))


def test_leftovers_of_unfinished_writes_and_lone_answers_go_after_a_day(
    desk: ApprovalDesk,
) -> None:
    desk.folder.mkdir(parents=True, mode=0o700)
    leftovers = {
        ".0123abcd.json.x1y2z3.tmp": NOW - 2 * DAY,
        "0123abcd.answer.json": NOW - 2 * DAY,
        ".4567cdef.json.a1b2c3.tmp": NOW - HOUR,
    }
    for name, touched in leftovers.items():
        (desk.folder / name).write_text("{}")
        os.chmod(desk.folder / name, 0o600)
        os.utime(desk.folder / name, (touched, touched))

    prune_approvals(desk.folder, NOW)

    assert _left(desk) == {".4567cdef.json.a1b2c3.tmp"}


async def test_an_asker_prunes_before_it_asks(desk: ApprovalDesk) -> None:
    old = _asked(desk, verdict=Verdict.DENIED)
    waiting = Waiting(desk)
    request = unlock()
    waiting.on_sleep = [lambda: desk.answer(waiting.open_request(), answer(request))]
    approval = waiting.approval()
    approval.wall_clock = lambda: NOW

    await approval.wait(
        request, profile="default", origin=ORIGIN, account=DEMO, requote=never_requoted
    )

    assert old not in " ".join(_left(desk))
    [asked] = desk.requests()[0]
    assert asked.idempotency_key == request.idempotency_key
