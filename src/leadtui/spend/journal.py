"""The spend journal: every credit-consuming call is written down before it is sent.

An intent without an outcome means "sent, or about to be, and we never learnt the answer": it
is offered for a resend with the same Idempotency-Key (never debited twice), only to its own
profile, server and account. SQLite in WAL mode with synchronous=FULL (a committed intent
survives a crash or power loss), one short-lived connection per call (any thread, any process);
a look that only reads opens the file read-only and holds no transaction once it returns, so
it never stands in a spend's way. One sender at a time holds a claim on an intent (owner and
expiry, taken in one statement); a claim whose process died here, or whose time ran out, may be
taken over.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.keys import idempotency_key_problem
from leadtui.config.settings import state_dir
from leadtui.spend.account import SpendAccount
from leadtui.spend.claims import CLAIM_SECONDS, new_claim_owner, owner_died
from leadtui.spend.debit import Meanwhile
from leadtui.spend.errors import IntentClaimed, IntentMissing, IntentSettled, JournalError
from leadtui.spend.intent import (
    SpendIntent,
    SpendOperation,
    SpendOutcome,
    Unreadable,
    UnreadableIntent,
    read_all,
    read_row,
)
from leadtui.spend.journal_file import create_private, prepare
from leadtui.spend.origin import spend_origin

BUDGET_WINDOW_SECONDS: Final = 24 * 60 * 60
"""A spend_budget is what may be spent without asking in any window this long."""

BUSY_SECONDS: Final = 30.0
"""How long a look or a write waits for another connection (a write, a checkpoint) before
the journal reports itself unavailable: on a loaded machine a spend queues, it does not fail."""


def canonical_body(body: Mapping[str, Any]) -> str:
    """The body as it is journaled and sent: canonical JSON (sorted keys, no spaces)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def canonical_body_hash(body: Mapping[str, Any] | str | None) -> str:
    """sha256 of the body as canonical JSON (or of the text given); of b"" when there is none."""
    text = "" if body is None else body if isinstance(body, str) else canonical_body(body)
    return hashlib.sha256(text.encode()).hexdigest()


class KeyInJournal(JournalError):
    """The key is in the journal already (perhaps just now, by another process)."""


def read_one(row: sqlite3.Row) -> SpendIntent:
    try:
        return read_row(row)
    except Unreadable as exc:
        key = str(row["idempotency_key"])
        raise JournalError(f"Intent {key} cannot be read by this version: {exc}.") from None


def default_journal_path() -> Path:
    return state_dir() / "journal.sqlite3"


class SpendJournal:
    """Durable record of spend intents and their outcomes. `clock` (unix seconds) times claims."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path or default_journal_path()
        self.clock = clock
        try:
            create_private(self.path)
        except OSError as exc:
            raise JournalError(f"The spend journal {self.path} cannot be created: {exc}") from None
        with self.writing() as db:
            prepare(db)

    def writing(self) -> AbstractContextManager[sqlite3.Connection]:
        # synchronous is per connection: FULL fsyncs the WAL on every commit.
        return self._opened(str(self.path), "PRAGMA synchronous=FULL")

    def reading(self) -> AbstractContextManager[sqlite3.Connection]:
        """Read-only: each query is its own short read (callers fetch every row, so none
        stays open), and closing it never checkpoints the WAL."""
        return self._opened(f"{self.path.resolve().as_uri()}?mode=ro", "PRAGMA query_only=ON")

    @contextmanager
    def _opened(self, where: str, pragma: str) -> Iterator[sqlite3.Connection]:
        """One connection in autocommit to `where` (a file name, or a `file:` URI)."""
        try:
            with closing(
                sqlite3.connect(where, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
            ) as db:
                db.execute(pragma)
                db.row_factory = sqlite3.Row
                yield db
        except sqlite3.Error as exc:
            raise JournalError(f"The spend journal {self.path} failed: {exc}") from exc

    def _intents(self, clauses: str, args: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self.reading() as db:
            query = f"SELECT * FROM spend_intents {clauses}"  # noqa: S608 - ours
            return db.execute(query, args).fetchall()

    def record_intent(
        self,
        *,
        idempotency_key: str,
        operation: SpendOperation,
        params: Mapping[str, Any],
        body: Mapping[str, Any] | str | None,
        amount: int | None,
        profile: str,
        origin: str,
        account: SpendAccount,
        claim_owner: str | None = None,
        surface: str = "",
        authorized_by: str | None = None,
        limits: str | None = None,
    ) -> SpendIntent:
        """Write the intent durably BEFORE sending. `params`: what a resend needs, never the
        API key; `claim_owner`: born claimed by the send about to happen; `limits`: it counts
        under them from now on. Raises InvalidIdempotencyKey, or KeyInJournal."""
        problem = idempotency_key_problem(idempotency_key)
        if problem is not None:
            raise InvalidIdempotencyKey(f"Not sent: {problem}.")
        text = None if body is None else body if isinstance(body, str) else canonical_body(body)
        expires = self.clock() + CLAIM_SECONDS if claim_owner is not None else None
        try:
            with self.writing() as db:
                row = {
                    "idempotency_key": idempotency_key,
                    "operation": SpendOperation(operation).value,
                    "params": json.dumps(dict(params), sort_keys=True),
                    "body_sha256": canonical_body_hash(text),
                    "amount": amount,
                    "profile": profile,
                    "base_url": spend_origin(origin),
                    "created_at": datetime.fromtimestamp(self.clock(), UTC).isoformat(),
                    "account_id": account.id,
                    "account_name": account.name,
                    "key_hint": account.key_hint,
                    "claim_owner": claim_owner,
                    "claim_expires": expires,
                    "surface": surface,
                    "authorized_by": authorized_by,
                    "body": text,
                }
                columns, marks = ", ".join(row), ", ".join("?" * len(row))
                db.execute(
                    f"INSERT INTO spend_intents ({columns}) VALUES ({marks})",  # noqa: S608 - ours
                    tuple(row.values()),
                )
                if limits is not None:
                    _charge(db, limits, idempotency_key)
                written = db.execute(
                    "SELECT * FROM spend_intents WHERE idempotency_key = ?", (idempotency_key,)
                ).fetchone()
        except JournalError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise KeyInJournal(
                    f"The idempotency key {idempotency_key} is already in the journal; resend "
                    "that intent instead of recording it again."
                ) from None
            raise
        return read_one(written)

    def count_under(self, limits: str, idempotency_key: str) -> None:
        """Count the spend under `limits` from now on (once, however often it is resent)."""
        with self.writing() as db:
            _charge(db, limits, idempotency_key)

    def spent_under(self, limits: str) -> tuple[int, int]:
        """Credits and launches taken under `limits`: a pending spend at its quote, a settled
        one at its measured debit (else its quote); a refused or discarded one not at all."""
        with self.reading() as db:
            (row,) = db.execute(
                "SELECT COALESCE(SUM(CASE WHEN i.operation = 'unlock'"
                " THEN COALESCE(i.debited, i.amount, 0) ELSE 0 END), 0),"
                " COALESCE(SUM(CASE WHEN i.operation = 'unlock' THEN 0 ELSE 1 END), 0)"
                " FROM spend_limits AS l JOIN spend_intents AS i USING (idempotency_key)"
                " WHERE l.limits = ? AND (i.outcome IS NULL OR i.outcome = 'succeeded')",
                (limits,),
            ).fetchall()
        return int(row[0]), int(row[1])

    def claim(self, idempotency_key: str, owner: str) -> SpendIntent:
        """Take the pending intent for one send (or a discard) by `owner`, atomically. Raises
        IntentMissing, IntentSettled, IntentClaimed, or JournalError (an unreadable row)."""
        now = self.clock()
        with self.writing() as db:
            taken = db.execute(
                "UPDATE spend_intents SET claim_owner = ?, claim_expires = ?"
                " WHERE idempotency_key = ? AND outcome IS NULL"
                " AND (claim_owner IS NULL OR claim_expires <= ?)",
                (owner, now + CLAIM_SECONDS, idempotency_key, now),
            ).rowcount
            row = db.execute(
                "SELECT * FROM spend_intents WHERE idempotency_key = ?", (idempotency_key,)
            ).fetchone()
            if row is None:
                raise IntentMissing(f"Intent {idempotency_key} is not in the journal.")
            if not taken and row["outcome"] is None and owner_died(row["claim_owner"]):
                # Compare-and-swap on the dead owner: of two takers, one wins.
                taken = db.execute(
                    "UPDATE spend_intents SET claim_owner = ?, claim_expires = ?"
                    " WHERE idempotency_key = ? AND outcome IS NULL AND claim_owner = ?",
                    (owner, now + CLAIM_SECONDS, idempotency_key, row["claim_owner"]),
                ).rowcount
        intent = read_one(row)
        if intent.outcome is not None:
            raise IntentSettled(
                f"Intent {idempotency_key} is already {intent.outcome}; it is not sent again."
            )
        if not taken:
            raise IntentClaimed(
                f"Intent {intent.idempotency_key} is being sent by another window or process right "
                "now; wait for its answer, then look at the pending spends again."
            )
        return intent

    def release(
        self, idempotency_key: str, owner: str, *, attempts: int, last_error: str | None
    ) -> None:
        """The send by `owner` ended with no outcome: count its attempts, free the claim."""
        with self.writing() as db:
            db.execute(
                "UPDATE spend_intents SET attempts = attempts + ?,"
                " last_error = COALESCE(?, last_error),"
                " claim_expires = CASE WHEN claim_owner = ? THEN NULL ELSE claim_expires END,"
                " claim_owner = CASE WHEN claim_owner = ? THEN NULL ELSE claim_owner END"
                " WHERE idempotency_key = ?",
                (attempts, last_error, owner, owner, idempotency_key),
            )

    def record_outcome(
        self,
        idempotency_key: str,
        outcome: SpendOutcome,
        detail: Mapping[str, Any] | None = None,
        *,
        attempts: int = 0,
    ) -> None:
        """Settle an intent and free its claim. A settled intent keeps its first outcome, except
        that a success overrides a discard: the server's answer wins over the user's guess."""
        value, now = SpendOutcome(outcome).value, datetime.now(UTC).isoformat()
        with self.writing() as db:
            db.execute(
                "UPDATE spend_intents SET outcome = ?, outcome_detail = ?, outcome_at = ?,"
                " attempts = attempts + ?, claim_owner = NULL, claim_expires = NULL"
                " WHERE idempotency_key = ?"
                " AND (outcome IS NULL OR (? = 'succeeded' AND outcome = 'discarded'))",
                (value, json.dumps(dict(detail or {})), now, attempts, idempotency_key, value),
            )

    def record_debit(self, idempotency_key: str, debited: int) -> None:
        """What the account was actually debited for a settled spend (from its balance)."""
        with self.writing() as db:
            db.execute(
                "UPDATE spend_intents SET debited = ? WHERE idempotency_key = ?",
                (debited, idempotency_key),
            )

    def spent_meanwhile(self, intent: SpendIntent, since: datetime) -> Meanwhile:
        """What the account's other spends may have debited since `since`: those settled as
        succeeded since, and those another sender holds now."""
        now = self.clock()
        rows = self._intents(
            "WHERE base_url = ? AND idempotency_key != ?"
            " AND ((outcome = 'succeeded' AND outcome_at >= ?)"
            " OR (outcome IS NULL AND claim_owner IS NOT NULL AND claim_expires > ?))",
            (intent.origin, intent.idempotency_key, since.astimezone(UTC).isoformat(), now),
        )
        others = [i for i in read_all(rows) if i.account.same_as(intent.account)]
        return Meanwhile(
            credits=sum((i.amount or 0) if i.debited is None else i.debited for i in others),
            exact=all(i.debited is not None for i in others),
        )

    def activity(self, profile: str) -> tuple[int, str | None, str | None]:
        """A mark that moves whenever any process journals or settles a spend of `profile`."""
        with self.reading() as db:
            (row,) = db.execute(
                "SELECT COUNT(*), MAX(created_at), MAX(outcome_at) FROM spend_intents"
                " WHERE profile = ?",
                (profile,),
            ).fetchall()
        return int(row[0]), row[1], row[2]

    def budget_spent(self, profile: str) -> int:
        """Credits this profile's budget let out in the last 24 hours, by any process: debited
        when known, else quoted; a pending spend counts (it may have been debited)."""
        since = datetime.fromtimestamp(self.clock() - BUDGET_WINDOW_SECONDS, UTC).isoformat()
        with self.reading() as db:
            (row,) = db.execute(
                "SELECT COALESCE(SUM(COALESCE(debited, amount, 0)), 0) FROM spend_intents"
                " WHERE profile = ? AND authorized_by = 'budget'"
                " AND (outcome IS NULL OR outcome = 'succeeded')"
                " AND created_at >= ?",
                (profile, since),
            ).fetchall()
        return int(row[0])

    def observed_price(self, origin: str, account: SpendAccount) -> int | None:
        """Credits per result (rounded up) this account was debited on its last measured unlock."""
        rows = self._intents(
            "WHERE base_url = ? AND operation = 'unlock' AND outcome = 'succeeded'"
            " AND debited IS NOT NULL ORDER BY outcome_at DESC, rowid DESC LIMIT 50",
            (spend_origin(origin),),
        )
        for intent in read_all(rows):
            results = intent.params.get("additional_results")
            if intent.account.same_as(account) and isinstance(results, int) and results > 0:
                debited = intent.debited or 0
                return -(-debited // results) if debited > 0 else None
        return None

    def discard(self, idempotency_key: str) -> None:
        """The user chose not to resend: in history, no longer pending (IntentClaimed while
        another window or process is sending it)."""
        self.claim(idempotency_key, new_claim_owner())
        self.record_outcome(idempotency_key, SpendOutcome.DISCARDED)

    def get(self, idempotency_key: str) -> SpendIntent | None:
        """The intent, or None; JournalError when its row cannot be read by this version."""
        rows = self._intents("WHERE idempotency_key = ?", (idempotency_key,))
        return read_one(rows[0]) if rows else None

    def pending(
        self,
        profile: str | None = None,
        origin: str | None = None,
        account: SpendAccount | None = None,
    ) -> list[SpendIntent]:
        """Readable intents with no outcome, oldest first, narrowed to what is given."""
        where = "WHERE outcome IS NULL"
        args: list[str] = []
        if profile is not None:
            where += " AND profile = ?"
            args.append(profile)
        if origin is not None:
            where += " AND base_url = ?"
            args.append(spend_origin(origin))
        intents = read_all(self._intents(where + " ORDER BY created_at, rowid", tuple(args)))
        if account is None:
            return intents
        return [i for i in intents if i.account.same_as(account)]

    def journaled_between(
        self, profile: str, origin: str, since: datetime, until: datetime
    ) -> list[SpendIntent]:
        """Readable intents of `profile` on `origin` journaled in [since, until), oldest first."""
        since_text, until_text = (
            since.astimezone(UTC).isoformat(),
            until.astimezone(UTC).isoformat(),
        )
        rows = self._intents(
            "WHERE profile = ? AND base_url = ? AND created_at >= ? AND created_at < ?"
            " ORDER BY created_at, rowid",
            (profile, spend_origin(origin), since_text, until_text),
        )
        return read_all(rows)

    def history(self, limit: int = 50) -> list[SpendIntent]:
        """The most recent readable intents, newest first, settled or not."""
        return read_all(self._intents("ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,)))

    def unreadable(self) -> list[UnreadableIntent]:
        """Rows this version cannot read, with the reason; they are never offered or sent."""
        found = []
        for row in self._intents("ORDER BY rowid"):
            try:
                read_row(row)
            except Unreadable as exc:
                found.append(UnreadableIntent(str(row["idempotency_key"]), str(exc)))
        return found


def _charge(db: sqlite3.Connection, limits: str, idempotency_key: str) -> None:
    db.execute(
        "INSERT OR IGNORE INTO spend_limits (limits, idempotency_key) VALUES (?, ?)",
        (limits, idempotency_key),
    )
