"""The scripting contract: with --json, stdout holds exactly one JSON document, whatever
happens, and every list tells a script whether it is whole."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.cli.twin import without_values
from tests.cli.conftest import Cli
from tests.cli.faults import AnswerLost
from tests.cli.test_files import ready_export
from tests.support.bodies import SEARCH


def test_results_to_a_file_print_what_was_written(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli, results=7)
    target = tmp_path / "leads.csv"
    ran = cli.run(
        "exports", "results", export_id, "--all", "--format", "csv", "-o", str(target), "--json"
    )
    assert ran.code == Exit.OK
    assert ran.doc == {"path": str(target), "format": "csv", "count": 7, "next_cursor": None}
    assert len(list(csv.DictReader(io.StringIO(target.read_text())))) == 7
    page = cli.run("exports", "results", export_id, "--limit", "3", "-o", str(target), "--json")
    assert page.doc["count"] == 3
    assert page.doc["format"] == "json"
    assert page.doc["next_cursor"]


def test_csv_on_stdout_and_json_cannot_share_it(cli: Cli) -> None:
    export_id = ready_export(cli)
    ran = cli.run("exports", "results", export_id, "--format", "csv", "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert "-o FILE" in ran.error["hint"]
    missing = cli.run("exports", "results", "exp_nope", "--format", "csv", "-o", "-", "--json")
    assert missing.code == Exit.USAGE  # the same rule for `-o -`: stdout is the document's
    failed = cli.run("exports", "results", "exp_nope", "--format", "table", "-o", "x", "--json")
    assert failed.code == Exit.NOT_FOUND
    assert failed.error["code"] == "not_found"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"activities": [{"name": "Bakery"}], "result_filter": {"x": NaN}}', "NaN is not"),
        ('{"activities": [{"name": "Bakery"}], "result_filter": {"x": -Infinity}}', "-Infinity"),
        ('{"activities": [{"name": "Bakery"}], "result_filter": {"x": 1e999}}', "1e999 is too"),
        ('{"activities": [{"name": "Bakery"}], "activities": []}', '"activities" is given twice'),
    ],
)
def test_searches_create_refuses_what_json_would_change(
    cli: Cli, tmp_path: Path, content: str, reason: str
) -> None:
    request = tmp_path / "search.json"
    request.write_text(content)
    ran = cli.run("searches", "create", "--file", str(request), "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert reason in ran.error["message"]
    assert "Nothing was sent" in ran.error["message"]
    sent = [r for r in cli.control("GET", "/_sandbox/requests") if r["method"] == "POST"]
    assert sent == []


@pytest.mark.parametrize(
    "argv",
    [
        ["account", "--api-key", "sk_live_abcdef123456"],
        ["account", "--api-key=sk_live_abcdef123456"],
        ["exports", "list", "--limit", "sk_live_abcdef123456"],
        ["exports", "results", "e1", "--format", "sk_live_abcdef123456"],
        ["exports", "get"],
        ["sk_live_abcdef123456"],
    ],
)
def test_a_usage_error_never_echoes_a_value(cli: Cli, argv: list[str]) -> None:
    for machine in (True, False):
        ran = cli.run(*argv, *(["--json"] if machine else []))
        assert ran.code == Exit.USAGE
        assert "sk_live" not in ran.out + ran.err
        assert "abcdef" not in ran.out + ran.err
        if machine:
            assert ran.error["code"] == "invalid_request"


def test_a_usage_error_still_names_the_option_and_the_command() -> None:
    message = without_values(
        "leadtui: unrecognized arguments: --api-key sk_live_x1",
        ["account", "--api-key", "sk_live_x1"],
    )
    assert message == "leadtui: unrecognized arguments: --api-key …"
    typo = without_values("leadtui: argument COMMAND: invalid choice: 'acount'", ["acount"])
    assert typo == "leadtui: argument COMMAND: invalid choice: 'acount'"


@pytest.mark.parametrize("seconds", ["-5", "0", "nan", "inf", "soon"])
def test_a_wait_timeout_must_be_seconds_above_zero(cli: Cli, seconds: str) -> None:
    ran = cli.run("exports", "wait", "exp_1", "--timeout", seconds, "--json")
    assert ran.code == Exit.USAGE
    assert "--timeout" in ran.error["message"]
    assert cli.control("GET", "/_sandbox/requests") == []


def test_a_lost_answer_to_searches_create_says_it_may_have_gone_through(
    cli: Cli, tmp_path: Path
) -> None:
    """A create has no idempotency key: never resent, and never "rerun" (a duplicate)."""

    request = tmp_path / "search.json"
    request.write_text(json.dumps(SEARCH))
    lossy = AnswerLost(cli.transport, "/searches")
    ran = cli.run("searches", "create", "--file", str(request), "--json", transport=lossy)
    assert ran.code == Exit.UNAVAILABLE
    error = ran.error
    assert error["code"] == "outcome_unknown"
    assert "may have gone through" in error["message"]
    assert "`leadtui searches list` shows whether it did" in error["hint"]
    assert "rerun" not in ran.out + ran.err
    posts = [r for r in cli.control("GET", "/_sandbox/requests") if r["method"] == "POST"]
    assert len(posts) == 1  # sent once, not retried
    listed = cli.run("searches", "list", "--json")
    assert len(json.loads(listed.out)["data"]) == 1  # it did go through: one search


@pytest.mark.parametrize(
    ("argv", "bounds"),
    [
        (["exports", "list", "--limit", "0"], "must be 1 to 100"),
        (["exports", "list", "--limit", "101"], "must be 1 to 100"),
        (["exports", "list", "--limit", "ten"], "not a whole number"),
        (["unlock", "s1", "--results", "2", "--max-credits", "-1"], "must be 0 or more"),
        (["unlock", "s1", "--results", "2", "--max-credits", "2.5"], "not a whole number"),
    ],
)
def test_a_count_out_of_its_bounds_is_a_usage_error_that_says_them(
    cli: Cli, argv: list[str], bounds: str
) -> None:
    ran = cli.run(*argv, "--json")
    assert ran.code == Exit.USAGE
    assert bounds in ran.error["message"]
    sent = [r for r in cli.control("GET", "/_sandbox/requests") if r["method"] == "POST"]
    assert sent == []
