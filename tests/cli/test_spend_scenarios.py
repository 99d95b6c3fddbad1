"""The scenario table through the command line, as a script runs it (`--json`, nobody to ask):
the exit code and the JSON code follow the decision, and nothing is sent when it refuses."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import URL, Cli
from tests.spend.scenarios import IDS, ROWS, Arranged, Row, arrange, spend_posts

# Refusals the server would have answered with a 409: a conflict, as its own 409 would be.
CONFLICTS = {
    "insufficient_credits",
    "no_launches_left",
    "pending_same_spend",
    "idempotency_conflict",
}


def _arrange(cli: Cli, row: Row) -> Arranged:
    async def go() -> Arranged:
        transport = httpx.ASGITransport(app=cli.sandbox_app)
        async with httpx.AsyncClient(transport=transport, base_url=URL) as http:
            return await arrange(row, http)

    return asyncio.run(go())


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_command_line(row: Row, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    arranged = _arrange(cli, row)
    if row.budget:
        monkeypatch.setenv("LEADTUI_SPEND_BUDGET", str(row.budget))
    if row.read_only:
        monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    if row.launch:
        argv = ["extractions", "launch", arranged.target]
    else:
        argv = ["unlock", arranged.target, "--results", str(row.results)]
        if row.ceiling is not None:
            argv += ["--max-credits", str(row.ceiling)]
    if row.key:
        argv += ["--idempotency-key", row.key]
    before = spend_posts(cli.control("GET", "/_sandbox/requests"))
    ran = cli.run(*argv, "--json")
    sent = spend_posts(cli.control("GET", "/_sandbox/requests"))[len(before) :]
    verdict, code = row.script
    if verdict == "send":
        assert ran.code == Exit.OK, ran.out
        assert len(sent) == (0 if row.reused_key else 1)  # a reused key replays, unsent
        return
    assert ran.code == (Exit.CONFLICT if code in CONFLICTS else Exit.CONFIRMATION_REQUIRED)
    assert ran.error["code"] == code
    assert ran.error["decision"]["verdict"] == "refuse"
    assert sent == []
