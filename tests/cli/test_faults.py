"""Fifty commands against a sandbox failing 30% of API requests (before or after acting):
each prints one JSON document and exits 0, 8 or 9, never a traceback; and once the pending
spends are resent, every unlock was debited exactly once."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.sandbox.config import SandboxConfig
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.cli.conftest import Cli
from tests.conftest import FakeClock

RUNS = 50
FAULT_RATE = 0.3


@pytest.fixture
def sandbox_config(sandbox_clock: FakeClock) -> Any:
    # Faults start once the test's own setup is done (see `faulty`).
    return SandboxConfig(job_seconds=0.3, clock=sandbox_clock, fault_seed=20261123)


def faulty(cli: Cli, rate: float) -> None:
    cli.sandbox_app.state.sandbox.config.fault_rate = rate


def test_fifty_commands_under_faults_print_json_and_exit_0_8_or_9(cli: Cli) -> None:
    search_id = cli.new_search()
    faulty(cli, FAULT_RATE)
    commands = [
        ["account", "--json"],
        ["searches", "list", "--json"],
        ["unlock", search_id, "--results", "1", "--max-credits", "1", "--json"],
        ["exports", "list", "--limit", "5", "--json"],
        ["searches", "results", search_id, "--jsonl"],
    ]
    codes: dict[str, list[int]] = {}
    for n in range(RUNS):
        argv = commands[n % len(commands)]
        ran = cli.run(*argv)
        assert "Traceback" not in ran.err
        assert ran.code in (Exit.OK, Exit.OUTCOME_UNKNOWN, Exit.UNAVAILABLE), ran.out
        for line in ran.out.splitlines() if "--jsonl" in argv else [ran.out]:
            doc = json.loads(line)  # every line a JSON document, errors included
            if ran.code != Exit.OK:
                assert doc["error"]["code"] in ("outcome_unknown", "network", "bad_response") or (
                    doc["error"]["status"] in (502, 503)
                )
        codes.setdefault(argv[0], []).append(ran.code)
    assert cli.control("GET", "/_sandbox/requests")  # the faults struck these very requests
    assert any(r["fault"] for r in cli.control("GET", "/_sandbox/requests"))

    faulty(cli, 0.0)
    journal = SpendJournal(cli.journal_path)
    for intent in journal.pending():
        assert cli.run("pending", "resend", intent.idempotency_key, "--json").code == Exit.OK
    succeeded = [i for i in journal.history(limit=RUNS) if i.outcome is SpendOutcome.SUCCEEDED]
    assert len(succeeded) == len(journal.history(limit=RUNS))
    assert cli.credits() == 10_000 - len(succeeded)  # one credit per journaled unlock, once
    unlocks_sent = codes["unlock"].count(Exit.OK) + codes["unlock"].count(Exit.OUTCOME_UNKNOWN)
    assert len(succeeded) == unlocks_sent
