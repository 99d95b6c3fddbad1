"""`unlock --wait --download DIR`: the export followed to its end and saved once, with every
way it can end said as an error (in process, on the sandbox's clock)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli


def test_wait_prints_the_ready_export(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "3", "--max-credits", "3", "--wait", "--json")
    assert ran.code == Exit.OK, ran.out
    assert ran.doc["status"] == "ready"
    assert "path" not in ran.doc


def test_download_saves_once_under_the_same_key(cli: Cli, tmp_path: Path) -> None:
    search_id = cli.new_search()
    leads = tmp_path / "nightly" / "leads"
    argv = ["unlock", search_id, "--results", "3", "--max-credits", "3"]
    argv += ["--idempotency-key", "night-1", "--download", str(leads), "--json"]
    first, second = cli.run(*argv), cli.run(*argv)
    assert (first.code, second.code) == (Exit.OK, Exit.OK), second.out
    assert first.doc["downloaded"] is True
    assert second.doc["downloaded"] is False
    assert first.doc["path"] == second.doc["path"] == str(leads / f"{first.doc['exportId']}.zip")
    assert zipfile.is_zipfile(first.doc["path"])
    assert len(cli.spending_requests()) == 1


def test_an_export_that_failed_is_job_failed(cli: Cli) -> None:
    search_id = cli.new_search()
    argv = ["unlock", search_id, "--results", "3", "--max-credits", "3", "--idempotency-key", "k1"]
    export_id = cli.run(*argv, "--json").doc["exportId"]
    cli.control("POST", f"/_sandbox/exports/{export_id}/fail")
    ran = cli.run(*argv, "--wait")
    assert ran.code == Exit.JOB_FAILED
    (line,) = ran.err.splitlines()
    assert "job_failed" in line
    assert f"leadtui exports retry {export_id}" in line


def test_a_download_folder_that_is_a_file_is_refused_before_spending(
    cli: Cli, tmp_path: Path
) -> None:
    search_id = cli.new_search()
    taken = tmp_path / "leads"
    taken.write_text("not a folder")
    ran = cli.run(
        "unlock", search_id, "--results", "3", "--max-credits", "3", "--download", str(taken)
    )
    assert ran.code == Exit.USAGE
    assert "not a folder" in ran.err
    assert cli.spending_requests() == []
