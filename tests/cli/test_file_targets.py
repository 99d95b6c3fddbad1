"""`-o` writes only where it should: a new exclusive file renamed into place, never through a
planted link, never over a device, a FIFO or a link; names made from ids stay in the folder;
`-o DIR/` must exist; `-o -` is standard output."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import main
from leadtui.cli.runtime import CliDeps
from leadtui.durable import NotARegularFile, refuse_unless_regular
from tests.cli.conftest import Cli
from tests.cli.test_files import ready_export

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("leads.csv", "company\nAcme\n")
    return buffer.getvalue()


async def any_id_is_an_archive(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    """A server that answers every download, whatever the id: as one could, with ids of its
    own making."""
    body = zip_bytes()
    headers = [(b"content-type", b"application/zip"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def test_an_id_never_names_a_file_outside_the_folder(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "box" / "in" / "downloads"
    folder.mkdir(parents=True)
    hostile = httpx.ASGITransport(app=any_id_is_an_archive)
    ran = cli.run(
        "exports", "download", "../../escaped", "-o", str(folder), "--json", transport=hostile
    )
    # An id that is not one path segment is refused before it is asked for or saved.
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert list(tmp_path.rglob("*.zip")) == []


def test_a_planted_temporary_name_is_never_written_through(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    target = tmp_path / "leads.zip"
    (tmp_path / "leads.zip.part").symlink_to(victim)
    ran = cli.run("exports", "download", export_id, "-o", str(target), "--json")
    assert ran.code == Exit.OK
    assert victim.read_text() == "mine"
    assert zipfile.is_zipfile(target)
    assert not target.is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_target_that_is_not_a_regular_file_is_refused(
    cli: Cli, tmp_path: Path, kind: str
) -> None:
    export_id = ready_export(cli)
    tmp_path = tmp_path / "box"
    tmp_path.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    target = tmp_path / "target"
    words = {"fifo": "a named pipe (FIFO)", "link": "a symbolic link"}[kind]
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(victim)
    download = ["exports", "download", export_id, "-o", str(target), "--json"]
    listing = ["exports", "results", export_id, "--format", "csv", "-o", str(target), "--json"]
    for argv in (download, listing):
        ran = cli.run(*argv)
        assert ran.code == Exit.USAGE, argv  # the user's input, not a failure to write
        assert ran.error["code"] == "invalid_request"
        assert f"it is {words}, not a regular file" in ran.error["message"]
    assert victim.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target", "victim.txt"]


def test_devices_are_refused_before_anything_is_written() -> None:
    with pytest.raises(NotARegularFile, match="it is a character device, not a regular file"):
        refuse_unless_regular(Path(os.devnull))


def test_a_folder_named_with_a_slash_must_exist(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    tmp_path = tmp_path / "box"
    tmp_path.mkdir()
    missing = f"{tmp_path / 'leads'}/"
    for argv in (
        ["exports", "download", export_id, "-o", missing, "--json"],
        ["exports", "results", export_id, "--format", "csv", "-o", missing, "--json"],
    ):
        ran = cli.run(*argv)
        assert ran.code == Exit.USAGE
        assert ran.error["code"] == "invalid_request"
        assert ran.error["message"] == f"Cannot write {missing}: no such folder."
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["searches", "exports"])
def test_results_into_a_folder_get_a_name_of_their_own(
    cli: Cli, tmp_path: Path, command: str
) -> None:
    export_id = ready_export(cli)
    item = export_id if command == "exports" else cli.new_search()
    folder = tmp_path / "leads"
    folder.mkdir()
    for given in (f"{folder}/", str(folder)):
        ran = cli.run(command, "results", item, "--format", "csv", "-o", given, "--json")
        assert ran.code == Exit.OK, ran.out
        assert Path(ran.doc["path"]).parent == folder
    assert sorted(p.name for p in folder.iterdir()) == [f"{item}-1.csv", f"{item}.csv"]


def test_a_download_into_a_missing_folder_is_the_users_input(cli: Cli, tmp_path: Path) -> None:
    export_id = ready_export(cli)
    target = tmp_path / "missing" / "leads.zip"
    ran = cli.run("exports", "download", export_id, "-o", str(target), "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert str(target) in ran.error["message"]


def binary_stdout(cli: Cli, *argv: str) -> tuple[int, bytes, str]:
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8")
    stderr = io.StringIO()
    deps = CliDeps(transport=cli.transport, sleep=cli.sleep, stdout=stdout, stderr=stderr)
    code = main(list(argv), deps)
    stdout.flush()
    return code, raw.getvalue(), stderr.getvalue()


def test_dash_is_standard_output(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp_path = tmp_path / "box"
    tmp_path.mkdir()
    monkeypatch.chdir(tmp_path)
    export_id = ready_export(cli)
    code, written, _ = binary_stdout(cli, "exports", "download", export_id, "-o", "-")
    assert code == Exit.OK
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        assert "leads.csv" in archive.namelist()
    code, written, _ = binary_stdout(cli, "exports", "results", export_id, "--jsonl", "-o", "-")
    assert code == Exit.OK
    assert len(written.decode().splitlines()) == 5
    assert list(tmp_path.iterdir()) == []  # no file named `-`


def test_an_archive_on_stdout_and_json_cannot_share_it(cli: Cli) -> None:
    export_id = ready_export(cli)
    ran = cli.run("exports", "download", export_id, "-o", "-", "--json")
    assert ran.code == Exit.USAGE
    assert "--json" in ran.error["message"]
