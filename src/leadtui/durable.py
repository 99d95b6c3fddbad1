"""Writing files so that a crash leaves either the old or the new content, never half of it.

Imports nothing of leadtui, so every layer (api, settings, ui) may use it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Final

# What stands at a path when it is not a regular file, in a user's words.
_KINDS: Final = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def os_error_reason(exc: OSError) -> str:
    """Why a file operation failed, in words and by errno: `Not a directory (ENOTDIR)`."""
    name = errno.errorcode.get(exc.errno) if exc.errno is not None else None
    words = exc.strerror or type(exc).__name__
    return f"{words} ({name})" if name else words


def fsync_dir(directory: Path) -> None:
    """Make a rename inside `directory` durable; not every platform can open a directory."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomically(path: Path, content: bytes, mode: int = 0o600) -> None:
    """Replace `path` with `content`: temp file (0600 from its first byte), fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


class NotARegularFile(OSError):
    """Something other than a regular file stands where a file was to be written: it is
    neither replaced nor written through."""

    def __init__(self, path: Path, kind: str) -> None:
        number = errno.EISDIR if kind == "a folder" else errno.EEXIST
        super().__init__(number, f"it is {kind}, not a regular file", str(path))
        self.kind = kind


def refuse_unless_regular(path: Path) -> None:
    """Raise NotARegularFile when `path` exists and is not a regular file (links not followed:
    a planted symbolic link is refused, never written through)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode):
        return
    kind = next((words for is_kind, words in _KINDS if is_kind(mode)), "not a regular file")
    raise NotARegularFile(path, kind)


class NewFile:
    """The next content of `path`, renamed over it only once complete and fsynced. Written to
    a temporary file created exclusively under a random name (no planted file or link is written
    through); a target that is not a regular file is refused before the first byte and again
    just before the rename. Blocking."""

    def __init__(self, path: Path, mode: int = 0o644) -> None:
        refuse_unless_regular(path)
        self.path = path
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        self.temporary = Path(name)
        with contextlib.suppress(OSError):  # a file system without modes: mkstemp's 0600
            os.fchmod(fd, mode)
        self.binary: BinaryIO = os.fdopen(fd, "wb")

    def text(self) -> io.TextIOWrapper:
        """The same file as UTF-8 text (newlines as written)."""
        return io.TextIOWrapper(self.binary, encoding="utf-8", newline="", write_through=True)

    def commit(self) -> Path:
        """Flush, fsync and rename over `path`; on failure nothing is left behind."""
        try:
            self.binary.flush()
            os.fsync(self.binary.fileno())
            self.binary.close()
            refuse_unless_regular(self.path)
            os.replace(self.temporary, self.path)
        except BaseException:
            self.abandon()
            raise
        fsync_dir(self.path.parent)
        return self.path

    def abandon(self) -> None:
        """Drop what was written: `path` stays as it was."""
        if not self.binary.closed:
            with contextlib.suppress(OSError):  # a failed flush of what is dropped anyway
                self.binary.close()
        self.temporary.unlink(missing_ok=True)
