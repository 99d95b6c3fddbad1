"""Replay-safe writes over HTTP: one `Idempotency-Key` per request, and `once`, which answers
a repeat of the same request with the first answer and no new effect."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi.responses import JSONResponse

from leadtui.api.contract import IDEMPOTENCY_HEADER
from leadtui.api.models import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN
from leadtui.sandbox.domain.answers import Outcome, fingerprint, remember, stored_answer
from leadtui.sandbox.problems import invalid
from leadtui.sandbox.state import SandboxState

REPLAY_HEADER = "Idempotent-Replayed"

# The change itself, inside the transaction, at `now`.
Action = Callable[[sqlite3.Connection, float], Outcome]
# The polling hint for the record an answer carries, from its current state.
Hint = Callable[[SandboxState, sqlite3.Connection, dict[str, Any]], dict[str, str]]


def _single_key(
    request: Request,
    key: Annotated[
        str,
        Header(
            alias=IDEMPOTENCY_HEADER,
            min_length=IDEMPOTENCY_KEY_MIN,
            max_length=IDEMPOTENCY_KEY_MAX,
            description="Unique per intended action; a repeat replays the first response.",
        ),
    ],
) -> str:
    # Two keys on one request would make the replay ambiguous: refuse rather than pick one.
    if len(request.headers.getlist(IDEMPOTENCY_HEADER)) > 1:
        raise invalid(f"{IDEMPOTENCY_HEADER}: send exactly one.")
    return key


IdempotencyKeyHeader = Annotated[str, Depends(_single_key)]


def once(
    state: SandboxState,
    request: Request,
    account_id: str,
    key: str,
    body: Any,
    act: Action,
    hint: Hint,
) -> JSONResponse:
    """Replay the first answer to `key`, or act and remember the answer, in one transaction.

    Both answers carry the polling hint of the record's current state, so a replay is the
    first response again: same status, same body, a hint that still helps."""
    fp = fingerprint(request.method, request.url.path, body)
    with state.store.transaction() as conn:
        prior = stored_answer(conn, account_id, key, fp)
        headers: dict[str, str] = {}
        if prior is None:
            now = state.now()
            status, answer = act(conn, now)
            remember(conn, account_id, key, fp, (status, answer), now)
        else:
            status, answer = prior
            headers[REPLAY_HEADER] = "true"
        headers.update(hint(state, conn, answer["data"]))
    return JSONResponse(answer, status_code=status, headers=headers)
