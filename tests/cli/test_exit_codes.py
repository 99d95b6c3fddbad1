"""Exit codes a script can branch on: a deadline is `timeout`, a state folder that cannot be
made is the user's input (2), the journal's folder is kept 0700, and nothing says "Nothing was
sent." twice."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli


def test_a_request_past_its_deadline_answers_timeout(cli: Cli) -> None:
    def never_answers(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    ran = cli.run("account", "--json", transport=httpx.MockTransport(never_answers))
    assert ran.code == Exit.UNAVAILABLE
    assert ran.error["code"] == "timeout"
    assert "deadline" in ran.error["hint"]


def state_folder() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "leadtui"


def test_a_state_folder_that_cannot_be_made_is_the_users_input(cli: Cli) -> None:
    state_folder().write_text("a file where the folder goes")
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "2", "--max-credits", "2", "--json")
    assert ran.code == Exit.USAGE
    assert "state directory" in ran.error["message"]
    assert ran.error["message"].count("Nothing was sent") == 1
    assert cli.spending_requests() == []


@pytest.mark.parametrize("argv", [["pending", "list", "--json"], ["pending", "--json"]])
def test_the_journal_folder_is_tightened_to_0700(cli: Cli, argv: list[str]) -> None:
    state_folder().mkdir(mode=0o755)
    state_folder().chmod(0o755)
    ran = cli.run(*argv)
    assert ran.code == Exit.OK, ran.out
    assert ran.doc["data"] == []
    assert stat.S_IMODE(state_folder().stat().st_mode) == 0o700


def test_a_key_that_cannot_be_sent_says_nothing_was_sent_once(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_caf\u00e9")
    ran = cli.run("account", "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["message"].lower().count("nothing was sent") == 1


def test_a_usage_error_in_a_log_is_one_line(cli: Cli) -> None:
    ran = cli.run("unlock", "srch_1", "--results", "x")
    assert ran.code == Exit.USAGE
    (line,) = ran.err.splitlines()
    assert line.startswith("leadtui unlock: argument --results")
    assert "`leadtui --help`" in line
    at_terminal = cli.run("unlock", "srch_1", "--results", "x", terminal=True)
    assert len(at_terminal.err.splitlines()) == 2
