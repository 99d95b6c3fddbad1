"""Old approval files go: answered, given up or abandoned requests, and their answers.

Pruned by the running app (when its watch starts, then hourly) and by an asker before it asks.
A request is removed with its answer once nothing has touched either for `KEEP_SECONDS` (a
day); an approved one is kept `KEEP_APPROVED_SECONDS` (30 days), because History and `leadtui
pending` name who asked for a journaled spend and who approved it from that file. Never
removed: a request still waited on (no answer, its asker alive and within its timeout), one
being sent (its asker alive), a file this version cannot read (a newer version's, or one
tampered with: the app shows it as refused), anything that is not a regular file of this user
(a symbolic link is never followed, nor removed), and anything in a folder that is not this
user's own. Every age is read on the caller's clock.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from leadtui.spend.approval_files import UnreadableApproval, owned_here, read_private
from leadtui.spend.approval_records import Answer, ApprovalRequest, Progress, Verdict

KEEP_SECONDS: Final = 24 * 3600.0
KEEP_APPROVED_SECONDS: Final = 30 * 24 * 3600.0
PRUNE_EVERY_SECONDS: Final = 3600.0
"""How often the running app prunes (its first look at the folder prunes too)."""

_REQUEST: Final = ".json"
_ANSWER: Final = ".answer.json"
_TEMPORARY: Final = ".tmp"


@dataclass
class Pruned:
    """The names removed, and the requests kept with why."""

    removed: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)


def prune_approvals(folder: Path, now: float) -> Pruned:
    """Remove the folder's old approval files (`now`: wall-clock seconds). Blocking; never
    raises for a file it cannot read or remove (it stays)."""
    pruned = Pruned()
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        folder_fd = os.open(folder, flags)
    except OSError:
        return pruned  # none yet, or a symbolic link where the folder should be: left alone
    try:
        with contextlib.suppress(OSError):  # what could not be judged stays, for the next time
            if owned_here(os.fstat(folder_fd)):
                _prune(_Folder(folder, folder_fd), now, pruned)
    finally:
        os.close(folder_fd)
    return pruned


@dataclass(frozen=True)
class _Folder:
    path: Path
    fd: int

    def names(self) -> list[str]:
        try:
            return sorted(os.listdir(self.fd))
        except OSError:
            return []

    def regular(self, name: str) -> os.stat_result | None:
        """The file's own status when it is a regular file of this user (links not followed)."""
        try:
            info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except OSError:
            return None
        return info if stat.S_ISREG(info.st_mode) and owned_here(info) else None

    def remove(self, name: str, seen: os.stat_result, pruned: Pruned) -> None:
        """Remove `name` if it is still the very file that was judged."""
        now = self.regular(name)
        if now is None or (now.st_ino, now.st_dev) != (seen.st_ino, seen.st_dev):
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=self.fd)
            pruned.removed.append(name)


def _prune(folder: _Folder, now: float, pruned: Pruned) -> None:
    names = folder.names()
    requests = {n[: -len(_REQUEST)] for n in names if _is_request(n)}
    for request_id in sorted(requests):
        _prune_request(folder, request_id, now, pruned)
    for name in names:
        if name.endswith(_ANSWER) and name[: -len(_ANSWER)] not in requests:
            _prune_alone(folder, name, now, pruned)  # its request is gone: nobody reads it
        elif name.startswith(".") and name.endswith(_TEMPORARY):
            _prune_alone(folder, name, now, pruned)  # a write that never finished


def _is_request(name: str) -> bool:
    stem = name[: -len(_REQUEST)]
    return name.endswith(_REQUEST) and not name.endswith(_ANSWER) and stem.isalnum()


def _prune_alone(folder: _Folder, name: str, now: float, pruned: Pruned) -> None:
    info = folder.regular(name)
    if info is not None and now - info.st_mtime > KEEP_SECONDS:
        folder.remove(name, info, pruned)


def _prune_request(folder: _Folder, request_id: str, now: float, pruned: Pruned) -> None:
    request_name, answer_name = f"{request_id}{_REQUEST}", f"{request_id}{_ANSWER}"
    files = {name: folder.regular(name) for name in (request_name, answer_name)}
    request_info = files[request_name]
    if request_info is None:
        return  # not a regular file of this user: never judged, never removed
    present = {name: info for name, info in files.items() if info is not None}
    touched = max(info.st_mtime for info in present.values())
    try:
        data = read_private(folder.path / request_name, folder_fd=folder.fd)
        answer_data = read_private(folder.path / answer_name, folder_fd=folder.fd)
        answer = None if answer_data is None else Answer.from_json(answer_data)
        request = ApprovalRequest.from_json(data, answer)
    except UnreadableApproval as exc:
        pruned.kept[request_name] = f"unreadable: {exc}"
        return
    keep = _why_kept(request, now, now - touched)
    if keep:
        pruned.kept[request_name] = keep
        return
    # The request first: an answer without its request is listed by nobody.
    for name, info in _request_first(present, request_name):
        folder.remove(name, info, pruned)


def _request_first(
    present: dict[str, os.stat_result], request_name: str
) -> Iterator[tuple[str, os.stat_result]]:
    yield request_name, present[request_name]
    yield from ((n, i) for n, i in present.items() if n != request_name)


def _why_kept(request: ApprovalRequest, now: float, age: float) -> str:
    """Why `request` stays ("" when it may go)."""
    asker_alive = not request.asker.gone()
    if request.answer is None and request.progress is Progress.WAITING:
        deadline = request.asker.at.timestamp() + request.wait_seconds
        if asker_alive and now <= deadline:
            return "still waited on"
    if request.progress is Progress.SENDING and asker_alive:
        return "being sent by its asker"
    approved = request.answer is not None and request.answer.verdict is Verdict.APPROVED
    keep = KEEP_APPROVED_SECONDS if approved else KEEP_SECONDS
    if age <= keep:
        return f"touched {_hours(age)} ago"
    return ""


def _hours(seconds: float) -> str:
    return f"{max(0.0, seconds) / 3600:.1f} h"
