"""Our own small files, read without ever hanging, and the private directory they live in."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from leadtui.config.errors import StateDirError
from leadtui.durable import os_error_reason

# The config file and the key file are a few hundred bytes; past this, it is not ours.
MAX_FILE_BYTES: Final = 1024 * 1024

_NOT_REGULAR: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class UnreadableFile(Exception):
    """A file of ours exists but cannot be read; `reason` says why in a few words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason


def _require_regular(path: Path, mode: int) -> None:
    for test, kind in _NOT_REGULAR:
        if test(mode):
            raise UnreadableFile(path, f"is {kind}, not a regular file")


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of `path` (at most `limit`), or None when there is no such file. Only a
    regular file is opened (reading a FIFO blocks until someone writes to it), non-blocking in
    case one was swapped in since the check."""
    try:
        _require_regular(path, os.stat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise UnreadableFile(path, os_error_reason(exc)) from None
    try:
        with os.fdopen(fd, "rb") as fh:
            _require_regular(path, os.fstat(fh.fileno()).st_mode)
            data = fh.read(limit + 1)
    except OSError as exc:
        raise UnreadableFile(path, os_error_reason(exc)) from None
    if len(data) > limit:
        raise UnreadableFile(path, f"is larger than {limit // 1024} KiB, too big to be ours")
    return data


def ensure_private_dir(path: Path) -> Path:
    """Make the directory `path` (with its parents) 0700, for files only the user may read;
    an existing one of the user's own is tightened to 0700, never loosened (someone else's is
    left as it is: its files are 0600 either way). Raises StateDirError naming the path and
    the reason."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except FileExistsError:
        raise StateDirError(
            str(path), "cannot create the state directory: a file is in the way (not a directory)"
        ) from None
    except OSError as exc:
        at = f" at {exc.filename}" if exc.filename and str(exc.filename) != str(path) else ""
        raise StateDirError(
            str(path), f"cannot create the state directory: {os_error_reason(exc)}{at}"
        ) from None
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
    except PermissionError:
        pass  # not ours to tighten: see the docstring
    except OSError as exc:
        raise StateDirError(
            str(path), f"cannot use the state directory: {os_error_reason(exc)}"
        ) from None
    return path
