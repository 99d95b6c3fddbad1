"""Approval files: written whole and created exclusively, read only when they can be trusted."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from leadtui.durable import fsync_dir

_MAX_FILE_BYTES: Final = 256 * 1024


class UnreadableApproval(Exception):
    """A request or answer file that cannot be trusted or read; never approved, never sent."""


def publish(path: Path, doc: Mapping[str, Any]) -> None:
    """Write `doc` whole to a private temporary file, then link it at `path`: created
    exclusively (FileExistsError when there is one), never seen half written."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(json.dumps(doc, sort_keys=True).encode())
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)
        os.link(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    fsync_dir(path.parent)


def read_private(path: Path, *, folder_fd: int | None = None) -> Any:
    """The JSON in `path`, or None when there is none. A file that is not a regular file of
    this user, readable by others or too big is refused (UnreadableApproval). With
    `folder_fd` (the folder opened already), `path.name` is read in that folder."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        if folder_fd is None:
            fd = os.open(path, flags)
        else:
            fd = os.open(path.name, flags, dir_fd=folder_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnreadableApproval(f"{path.name}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableApproval(f"{path.name} is not a regular file")
        if not owned_here(info):
            raise UnreadableApproval(f"{path.name} belongs to another user")
        if info.st_mode & 0o077:
            raise UnreadableApproval(f"{path.name} may be read or written by others")
        raw = fh.read(_MAX_FILE_BYTES + 1)
    if len(raw) > _MAX_FILE_BYTES:
        raise UnreadableApproval(f"{path.name} is too big")
    try:
        return json.loads(raw)
    except ValueError:
        raise UnreadableApproval(f"{path.name} is not JSON") from None


def owned_here(info: os.stat_result) -> bool:
    """True when the file `info` describes belongs to the user this process runs as."""
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()
