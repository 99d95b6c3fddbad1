"""The scripting contract: with --json, stdout holds exactly one JSON document, whatever
happens, and every list tells a script whether it is whole."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli
from tests.cli.test_files import ready_export


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
