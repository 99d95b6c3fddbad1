"""The command line's exit codes: one table for `--help`, the README and the code."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    """What a script can branch on; `MEANINGS` says what each one means."""

    OK = 0
    UNEXPECTED = 1
    USAGE = 2
    JOB_FAILED = 3
    WAIT_TIMED_OUT = 4
    AUTH = 5
    NOT_FOUND = 6
    CONFLICT = 7
    OUTCOME_UNKNOWN = 8
    UNAVAILABLE = 9
    CONFIRMATION_REQUIRED = 10
    WRITE_FAILED = 11
    INTERRUPTED = 130


MEANINGS: dict[Exit, str] = {
    Exit.OK: "ok (wait: the job is ready or completed)",
    Exit.UNEXPECTED: "unexpected failure (a bug, an unreadable answer, the journal unavailable)",
    Exit.USAGE: (
        "usage or invalid input: local validation sends nothing; the server's 400; a refused "
        "-o target or a missing folder; a state folder that cannot be made"
    ),
    Exit.JOB_FAILED: "wait: the job failed or was stopped",
    Exit.WAIT_TIMED_OUT: "wait: --timeout passed before the job settled",
    Exit.AUTH: "401/403: key missing, rejected or lacking a scope; subscription or access off",
    Exit.NOT_FOUND: "404: no such search, export or extraction in this account",
    Exit.CONFLICT: (
        "409: not enough credits or results, job not ready, key or state conflict; "
        "wait: a draft or paused job, which will not move by itself"
    ),
    Exit.OUTCOME_UNKNOWN: "a spend's outcome is unknown: journaled as pending (`leadtui pending`)",
    Exit.UNAVAILABLE: "network failure, a request past its deadline, 429 or 5xx after retries",
    Exit.CONFIRMATION_REQUIRED: "a spend was not authorized (or read_only): nothing was sent",
    Exit.WRITE_FAILED: "what was asked could not be written (disk full, no permission, stdout "
    "closed)",
    Exit.INTERRUPTED: "interrupted (Ctrl-C); with --json the error document says what was read",
}
