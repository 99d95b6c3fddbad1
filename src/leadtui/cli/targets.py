"""Where `-o` sends what a command writes: standard output, a file, or a free name in a folder.

`-o -` is standard output, and so is a path naming the very terminal or pipe standard output
already is (`/dev/stdout`). Anything else that exists and is not a regular file (a device, a
FIFO, a link) is refused by the writer (`NewFile`), never replaced nor written through.
`-o DIR/` names a folder, which must exist: what is written gets a free name inside it.
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import TextIO

from leadtui.cli.failures import CliFailure, usage_failure, write_failure
from leadtui.config.download_folder import free_path

STDOUT = "-"


def names_stdout(given: str, stdout: TextIO) -> bool:
    """`-o -`, or a path that is the terminal or pipe standard output already writes to."""
    if given == STDOUT:
        return True
    try:
        named = os.stat(Path(given).expanduser())
        ours = os.fstat(stdout.fileno())
    except (OSError, ValueError, RuntimeError, io.UnsupportedOperation):
        return False
    if stat.S_ISREG(named.st_mode):
        return False
    return (named.st_dev, named.st_ino) == (ours.st_dev, ours.st_ino)


def _means_folder(given: str) -> bool:
    return given.endswith(("/", os.sep))


def missing_folder(given: str) -> CliFailure:
    return usage_failure(
        f"Cannot write {given}: no such folder.",
        hint="Create the folder first (mkdir -p), or name a file.",
    )


def archive_path(given: str | None, name: str, default_folder: str | Path) -> Path:
    """Where an archive goes: `-o FILE`, a free name (from `name`) in `-o DIR` or `-o DIR/`
    (which must exist), else a free name in `default_folder` (created when missing)."""
    try:
        if not given:
            return free_path(Path(default_folder).expanduser(), name)
        path = Path(given).expanduser()
        if path.is_dir():
            return free_path(path, name)
        if _means_folder(given):
            raise missing_folder(given)
    except OSError as exc:
        raise write_failure(given or default_folder, exc) from None
    return path


def file_path(given: str, name: str) -> Path:
    """`-o FILE` for a listing; `-o DIR/` (or an existing folder) gets a free name made from
    `name` inside it. The folder must exist."""
    path = Path(given).expanduser()
    if path.is_dir():
        try:
            return free_path(path, name)
        except OSError as exc:
            raise write_failure(given, exc) from None
    if _means_folder(given):
        raise missing_folder(given)
    return path
