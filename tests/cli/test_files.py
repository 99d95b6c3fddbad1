"""Downloads land atomically where asked, with a progress bar on a terminal; a reader that
goes away (`| head`) ends the command quietly."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import main
from leadtui.cli.runtime import CliDeps
from tests.cli.conftest import Cli
from tests.cli.test_waiting import unlock


def ready_export(cli: Cli, results: int = 5) -> str:
    export_id = unlock(cli, results)
    assert cli.run("exports", "wait", export_id, "--json").code == Exit.OK
    return export_id


def test_download_writes_the_zip_to_the_path_asked(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    target = tmp_path / "out" / "leads.zip"
    target.parent.mkdir()
    ran = cli.run("exports", "download", export_id, "-o", str(target), "--json")
    assert ran.code == Exit.OK
    assert ran.doc == {"exportId": export_id, "path": str(target), "bytes": target.stat().st_size}
    with zipfile.ZipFile(target) as archive:
        assert {"leads.csv", "leads.json"} <= set(archive.namelist())
    assert [p.name for p in target.parent.iterdir()] == ["leads.zip"]


def test_download_into_a_folder_never_overwrites(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    first = cli.run("exports", "download", export_id, "-o", str(tmp_path))
    second = cli.run("exports", "download", export_id, "-o", str(tmp_path))
    assert first.out.strip() == str(tmp_path / f"{export_id}.zip")
    assert second.out.strip() == str(tmp_path / f"{export_id}-1.zip")


def test_download_defaults_to_the_download_dir_setting(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_DOWNLOAD_DIR", str(tmp_path / "downloads"))
    export_id = ready_export(cli)
    ran = cli.run("exports", "download", export_id)
    assert ran.out.strip() == str(tmp_path / "downloads" / f"{export_id}.zip")


def test_download_shows_a_progress_bar_on_a_terminal(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    ran = cli.run("exports", "download", export_id, "-o", str(tmp_path), terminal=True)
    assert ran.code == Exit.OK
    assert "100%" in ran.err
    assert "█" in ran.err


def test_custom_download_with_chosen_columns(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    target = tmp_path / "custom.zip"
    ran = cli.run(
        "exports", "custom-download", export_id, "--columns", "company,city", "-o", str(target)
    )
    assert ran.code == Exit.OK
    with zipfile.ZipFile(target) as archive:
        header = archive.read("leads.csv").decode().splitlines()[0]
    assert header == "company,city"
    refused = cli.run(
        "exports", "custom-download", export_id, "--columns", "company,secret", "--json"
    )
    assert refused.code == Exit.USAGE
    assert refused.error["code"] == "invalid_request"
    assert refused.error["status"] == 400


def test_download_of_an_export_not_ready_leaves_no_file(cli: Cli, tmp_path: Path) -> None:
    export_id = unlock(cli)
    folder = tmp_path / "out"
    folder.mkdir()
    ran = cli.run("exports", "download", export_id, "-o", str(folder / "x.zip"), "--json")
    assert ran.code == Exit.CONFLICT
    assert ran.error["code"] == "export_not_ready"
    assert list(folder.iterdir()) == []


class ClosedPipe(io.StringIO):
    """stdout whose reader leaves after `lines` lines, as `| head` does."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.left = lines

    def write(self, text: str) -> int:
        self.left -= text.count("\n")
        if self.left < 0:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_closed_pipe_ends_quietly(cli: Cli) -> None:
    search_id = cli.new_search()
    assert cli.run("unlock", search_id, "--results", "300", "--max-credits", "300").code == 0
    stdout, stderr = ClosedPipe(lines=2), io.StringIO()
    deps = CliDeps(transport=cli.transport, sleep=cli.sleep, stdout=stdout, stderr=stderr)
    argv = ["searches", "results", search_id, "--all", "--format", "csv", "--limit", "100"]
    code = main(argv, deps)
    assert code == Exit.OK
    assert stderr.getvalue() == ""
    assert len(stdout.getvalue().splitlines()) == 2
    requests = [
        r for r in cli.control("GET", "/_sandbox/requests") if r["path"].endswith("/results")
    ]
    assert len(requests) == 1  # it stopped walking once nobody read


def test_results_to_a_folder_that_does_not_exist_say_so(cli: Cli, tmp_path: Path) -> None:
    search_id = cli.new_search()
    target = tmp_path / "missing" / "leads.csv"
    ran = cli.run("searches", "results", search_id, "--format", "csv", "-o", str(target))
    assert ran.code == Exit.USAGE
    assert "invalid_request" in ran.err
    assert "Traceback" not in ran.err
    assert len(ran.err.splitlines()) == 1
