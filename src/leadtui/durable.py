"""Writing files so that a crash leaves either the old or the new content, never half of it.

Imports nothing of leadtui, so every layer (api, settings, ui) may use it.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def os_error_reason(exc: OSError) -> str:
    """Why a file operation failed, in words and by errno: `Not a directory (ENOTDIR)`."""
    name = errno.errorcode.get(exc.errno) if exc.errno is not None else None
    words = exc.strerror or type(exc).__name__
    return f"{words} ({name})" if name else words


def fsync_dir(directory: Path) -> None:
    """Make a rename inside `directory` durable; not every platform can open a directory."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
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
