"""On the command line, an id that cannot be one path segment is a usage error
(`invalid_request`, exit 2) with its reason, and nothing reaches the server."""

from __future__ import annotations

import pytest

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli

COMMANDS = {
    "searches-get": ("searches", "get", "../me"),
    "searches-results": ("searches", "results", "srch_000001/results"),
    "unlock": ("unlock", "..", "--results", "3", "--yes", "--max-credits", "10"),
    "exports-get": ("exports", "get", "."),
    "exports-wait": ("exports", "wait", "exp_1\nX"),
    "extractions-launch": ("extractions", "launch", "../x", "--yes"),
    "extractions-stop": ("extractions", "stop", "x" * 10_000),
}


@pytest.mark.parametrize("argv", list(COMMANDS.values()), ids=list(COMMANDS))
def test_an_id_that_is_not_one_segment_is_refused_unsent(cli: Cli, argv: tuple[str, ...]) -> None:
    ran = cli.run(*argv, "--json")
    assert ran.code == Exit.USAGE, ran.out + ran.err
    assert ran.error["code"] == "invalid_request"
    assert "nothing was sent" in ran.error["message"]
    assert len(ran.out) < 1000  # the reason, never the value
    assert "Traceback" not in ran.out + ran.err
    assert cli.control("GET", "/_sandbox/requests") == []


def test_and_in_words_for_a_person(cli: Cli) -> None:
    ran = cli.run("searches", "get", "../me")
    assert ran.code == Exit.USAGE
    assert "invalid_request" in ran.err
    assert "An id cannot hold / or \\" in ran.err
    assert cli.control("GET", "/_sandbox/requests") == []
