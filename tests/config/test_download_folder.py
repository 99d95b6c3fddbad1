"""Where downloads go: free names, a typed folder checked, a folder name completed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leadtui.config.download_folder import (
    NAME_MAX,
    FolderCheck,
    check_folder,
    complete_folder,
    file_name,
    free_path,
)


def test_a_free_name_never_overwrites_a_file_or_a_link(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "deeper"
    assert free_path(folder, "exp_1.zip") == folder / "exp_1.zip"  # the folder is made
    (folder / "exp_1.zip").write_bytes(b"first")
    (folder / "exp_1-1.zip").symlink_to(tmp_path / "nowhere")
    assert free_path(folder, "exp_1.zip") == folder / "exp_1-2.zip"


@pytest.mark.parametrize(
    ("made_from", "name"),
    [
        ("../../../escaped.zip", "_.._.._escaped.zip"),
        ("/etc/passwd", "_etc_passwd"),
        ("..", "download"),
        ("exp_1\n\x1b[31m.zip", "exp_1___31m.zip"),
        ("a/b\\c.zip", "a_b_c.zip"),
    ],
)
def test_a_name_made_from_an_id_stays_in_the_folder(
    tmp_path: Path, made_from: str, name: str
) -> None:
    path = free_path(tmp_path, made_from)
    assert path == tmp_path / name
    assert path.parent == tmp_path


def test_a_long_id_keeps_its_extension() -> None:
    name = file_name("x" * 500 + ".zip")
    assert len(name) == NAME_MAX
    assert name.endswith("x.zip")


def test_an_existing_folder_and_one_that_can_be_created(tmp_path: Path) -> None:
    assert check_folder(str(tmp_path)) == FolderCheck(tmp_path)
    deeper = tmp_path / "clients" / "acme"
    assert check_folder(f"  {deeper}  ") == FolderCheck(deeper, new=True)
    assert not deeper.exists()  # checking makes nothing


def test_home_and_relative_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert check_folder("~/leads").folder == tmp_path / "leads"
    monkeypatch.chdir(tmp_path)
    assert check_folder("leads").folder == tmp_path / "leads"
    assert check_folder("./here").folder == tmp_path / "here"


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("", "type a folder"),
        ("   ", "type a folder"),
        ("/tmp/a\tb", "character 7 is a control character"),
        ("~no_such_user_here/leads", "~no_such_user_here names no home folder"),
    ],
)
def test_what_cannot_be_a_folder_says_why(typed: str, problem: str) -> None:
    assert check_folder(typed) == FolderCheck(None, problem)


def test_a_file_in_the_way_or_a_link_to_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder")
    assert check_folder(str(blocker)).problem == f"{blocker} is a file, not a folder"
    assert check_folder(str(blocker / "a" / "b")).problem == f"{blocker} is a file, not a folder"
    link = tmp_path / "gone"
    link.symlink_to(tmp_path / "nowhere")
    assert check_folder(str(link / "x")).problem == f"{link} is a link to nothing"


def test_a_folder_that_may_not_be_written_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The permission bits alone prove nothing to root, who may write anywhere: ask access(2)
    # for the answer a user without the right would get.
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert check_folder(str(tmp_path)).problem == "this folder is not writable (permission denied)"
    assert check_folder(str(tmp_path / "new")).problem == (
        f"it cannot be created in {tmp_path} (permission denied)"
    )


def test_a_folder_name_is_completed_with_the_first_subfolder(tmp_path: Path) -> None:
    for name in ("projects", "prospects", ".private"):
        (tmp_path / name).mkdir()
    (tmp_path / "printout.txt").write_text("a file, never offered")
    assert complete_folder(f"{tmp_path}/pr") == f"{tmp_path}/projects/"
    assert complete_folder(f"{tmp_path}/pros") == f"{tmp_path}/prospects/"
    assert complete_folder(f"{tmp_path}/projects") == f"{tmp_path}/projects/"
    assert complete_folder(f"{tmp_path}/") == f"{tmp_path}/projects/"  # hidden ones left out
    assert complete_folder(f"{tmp_path}/.p") == f"{tmp_path}/.private/"
    assert complete_folder(f"{tmp_path}/pri") is None
    assert complete_folder(f"{tmp_path}/missing/x") is None
    assert complete_folder("projects") is None  # nothing to list without a folder
