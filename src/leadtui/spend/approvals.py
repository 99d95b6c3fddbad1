"""Spends waiting for a person's yes in the running app: one file per request, beside the journal.

A surface that cannot ask anyone (an agent without elicitation, a script without a terminal)
writes the spend it wants to send into `approvals/<id>.json` and waits; the running app lists
the requests and answers one by creating `approvals/<id>.answer.json`. That file is created
exclusively (written whole, then hard-linked into place), so of two answers — two apps, or an
app and the asker giving up — exactly one wins. Only the asker writes its request file (whole,
by rename) and only the asker ever sends: an answer carries what the person saw (account, key,
body hash, total), and the asker sends only the spend it holds in memory, and only if the
answer matches it. Files are 0600 in a 0700 folder, and a file that another user owns, that
others may read, or that is not a regular file is never trusted.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from leadtui.durable import write_atomically
from leadtui.spend.account import SpendAccount
from leadtui.spend.approval_files import UnreadableApproval, publish, read_private
from leadtui.spend.approval_records import (
    Answer,
    ApprovalRequest,
    Party,
    Progress,
    Verdict,
    quote_from_json,
)
from leadtui.spend.journal import canonical_body_hash, default_journal_path
from leadtui.spend.request import SpendRequest

__all__ = [
    "COMMAND_LINE",
    "DEFAULT_WAIT_SECONDS",
    "MAX_WAIT_SECONDS",
    "Answer",
    "ApprovalDesk",
    "ApprovalRequest",
    "Party",
    "Progress",
    "UnreadableApproval",
    "Verdict",
    "approvals_folder",
    "quote_from_json",
]

FOLDER_NAME: Final = "approvals"
DEFAULT_WAIT_SECONDS: Final = 120.0
MAX_WAIT_SECONDS: Final = 900.0
"""How long an asker may wait for the app's answer: 15 minutes at most."""
_SUFFIX: Final = ".json"
_ANSWER_SUFFIX: Final = ".answer.json"
COMMAND_LINE: Final = "command line"


def approvals_folder(journal_path: Path | None = None) -> Path:
    """The folder beside the journal (the state dir, or next to a journal given explicitly)."""
    return (journal_path or default_journal_path()).parent / FOLDER_NAME


class ApprovalDesk:
    """The folder of approval requests: the asker's side (`ask`, `update`) and the app's side
    (`requests`, `answer`). Blocking file I/O: call it from a thread in an event loop."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _request_path(self, request_id: str) -> Path:
        if not request_id.isalnum():  # our ids are uuid hex: never a path of another folder
            raise UnreadableApproval(f"not a request id: {request_id!r}")
        return self.folder / f"{request_id}{_SUFFIX}"

    def _answer_path(self, request_id: str) -> Path:
        return self._request_path(request_id).with_name(f"{request_id}{_ANSWER_SUFFIX}")

    # --- the asker ---------------------------------------------------------------------

    def ask(
        self,
        request: SpendRequest,
        *,
        asker: Party,
        wait_seconds: float,
        profile: str,
        origin: str,
        account: SpendAccount,
    ) -> ApprovalRequest:
        """Write a new request (exclusively: never over another file) and return it."""
        pending = ApprovalRequest(
            id=uuid.uuid4().hex,
            asker=asker,
            wait_seconds=wait_seconds,
            profile=profile,
            origin=origin,
            account=account,
            operation=request.operation,
            params=dict(request.params),
            body_sha256=canonical_body_hash(request.body),
            idempotency_key=request.idempotency_key,
            quote=request.quote,
        )
        publish(self._request_path(pending.id), pending.to_json())
        return pending

    def update(
        self, pending: ApprovalRequest, progress: Progress, detail: Mapping[str, Any] | None = None
    ) -> ApprovalRequest:
        """The asker records what it did (the file is replaced whole, by rename)."""
        changed = ApprovalRequest(
            **{**pending.__dict__, "progress": progress, "detail": dict(detail or {})}
        )
        data = json.dumps(changed.to_json(), sort_keys=True).encode()
        write_atomically(self._request_path(pending.id), data)
        return changed

    # --- either side -------------------------------------------------------------------

    def answer(self, request_id: str, answer: Answer) -> bool:
        """Answer a request, once: True when this answer is the one that counts, False when
        another was written first (another app, or the asker gave up)."""
        try:
            publish(self._answer_path(request_id), answer.to_json())
        except FileExistsError:
            return False
        return True

    def answer_of(self, request_id: str) -> Answer | None:
        """The answer written for a request, if any. Raises UnreadableApproval."""
        data = read_private(self._answer_path(request_id))
        return None if data is None else Answer.from_json(data)

    def get(self, request_id: str) -> ApprovalRequest | None:
        """One request with its answer; None when there is no such file."""
        data = read_private(self._request_path(request_id))
        if data is None:
            return None
        return ApprovalRequest.from_json(data, self.answer_of(request_id))

    # --- the app -----------------------------------------------------------------------

    def signature(self) -> tuple[tuple[str, int], ...]:
        """The folder's names and change times: a cheap look for "anything new?"."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return ()
        found = []
        for entry in entries:
            if entry.name.endswith(_SUFFIX):
                try:
                    found.append((entry.name, entry.stat(follow_symlinks=False).st_mtime_ns))
                except OSError:
                    continue
        return tuple(sorted(found))

    def requests(self) -> tuple[list[ApprovalRequest], list[tuple[str, str]]]:
        """Every request (oldest first) and the files that cannot be trusted, with why."""
        found: list[ApprovalRequest] = []
        bad: list[tuple[str, str]] = []
        for name, _ in self.signature():
            if name.endswith(_ANSWER_SUFFIX):
                continue
            request_id = name[: -len(_SUFFIX)]
            try:
                request = self.get(request_id)
            except UnreadableApproval as exc:
                bad.append((request_id, str(exc)))
                continue
            if request is not None:
                found.append(request)
        found.sort(key=lambda r: (r.asker.at, r.id))
        return found, bad

    def approved_by_key(self) -> dict[str, ApprovalRequest]:
        """The approved request of each spend asked in the app, by its idempotency key."""
        requests, _ = self.requests()
        return {
            r.idempotency_key: r
            for r in requests
            if r.answer is not None and r.answer.verdict is Verdict.APPROVED
        }
