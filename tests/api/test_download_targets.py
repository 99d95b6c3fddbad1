"""A download the file system refuses says why and where, and leaves nothing behind.

Against the sandbox (in process): a real archive, refused by a real file system.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import DownloadNotSaved, LeadError
from tests.api.test_against_sandbox import ready_export
from tests.api.test_download_faults import leftovers
from tests.conftest import FakeClock

NOBODY = 65534


@contextmanager
def without_root() -> Iterator[None]:
    """Root writes through any permission bits; while this runs, we are not root."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def read_only_dir() -> Iterator[Path]:
    # In the system temp dir, which anyone may traverse (pytest's own is private to its user).
    folder = Path(tempfile.mkdtemp(prefix="leadtui-read-only-"))
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


async def test_a_read_only_directory_is_named_with_the_reason(
    client: LeadClient, sandbox_clock: FakeClock, read_only_dir: Path
) -> None:
    _, export = await ready_export(client, sandbox_clock, 5)
    target = read_only_dir / "leads.zip"
    with without_root(), pytest.raises(DownloadNotSaved) as caught:
        await client.exports.download(export.exportId, target)
    error = caught.value
    assert isinstance(error, LeadError)
    assert (error.path, error.reason, error.errno) == (target, "permission denied", errno.EACCES)
    assert error.message == (
        f"Could not save {target}: permission denied. Nothing was left half-written."
    )
    assert leftovers(read_only_dir) == []


async def test_a_directory_in_the_way_is_named_and_the_part_file_removed(
    client: LeadClient, sandbox_clock: FakeClock, tmp_path: Path
) -> None:
    _, export = await ready_export(client, sandbox_clock, 5)
    target = tmp_path / "downloads" / "leads.zip"
    target.mkdir(parents=True)
    (target / "kept.txt").write_text("mine")
    with pytest.raises(DownloadNotSaved) as caught:
        await client.exports.custom_download(export.exportId, target, ["company"])
    assert caught.value.path == target
    assert caught.value.errno in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST)
    assert leftovers(target.parent) == ["leads.zip"]
    assert (target / "kept.txt").read_text() == "mine"


async def test_a_missing_folder_is_named(
    client: LeadClient, sandbox_clock: FakeClock, tmp_path: Path
) -> None:
    _, export = await ready_export(client, sandbox_clock, 5)
    target = tmp_path / "no such folder" / "leads.zip"
    with pytest.raises(DownloadNotSaved) as caught:
        await client.exports.download(export.exportId, target)
    assert (caught.value.reason, caught.value.path) == ("no such file or directory", target)


@pytest.mark.parametrize(
    ("number", "reason"),
    [
        (errno.EROFS, "read-only file system"),
        (errno.ENOSPC, "no space left on device"),
        (errno.EACCES, "permission denied"),
        (errno.EDQUOT, "disk quota exceeded"),
    ],
)
def test_reasons_come_from_errno_in_the_systems_words(number: int, reason: str) -> None:
    path = Path("leads.zip")
    error = DownloadNotSaved.from_os_error(path, OSError(number, "ignored text"))
    assert (error.reason, error.errno, error.path) == (reason, number, path)


def test_an_os_error_without_errno_still_has_a_reason() -> None:
    error = DownloadNotSaved.from_os_error(Path("x.zip"), OSError("no number"))
    assert error.reason == "the file system refused the write"
    assert error.errno is None
