"""Streaming an archive to disk (a new exclusive file, fsync, atomic rename; nothing
half-written stays) or to an open stream."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import httpx

from leadtui.api.bodies import raw_chunks
from leadtui.api.errors import ConnectionFailed, DownloadNotSaved, RequestTimeout
from leadtui.durable import NewFile

OnProgress = Callable[[int, int | None], None]
# Where an archive goes: a file (written atomically), or an open binary stream.
Target = str | os.PathLike[str] | BinaryIO


def _total(response: httpx.Response) -> int | None:
    value = response.headers.get("Content-Length")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


async def save(response: httpx.Response, to: Target, on_progress: OnProgress | None) -> Path | None:
    """Write the unread body of `response` to the file `to` (its path is returned) or to an
    open stream (standard output), in constant memory.

    A file is written atomically: the body goes to a new file created exclusively beside it
    (see `NewFile`) and takes its place once complete. The body is written as it came: the
    transport refuses encoded archives. A file system that refuses the write, or something
    other than a regular file at the path, raises DownloadNotSaved naming the path and why.
    """
    if not isinstance(to, str | os.PathLike):
        await _write_body(response, to, on_progress)
        return None
    path = Path(to)
    try:
        new = await asyncio.to_thread(NewFile, path)
    except OSError as exc:
        raise DownloadNotSaved.from_os_error(path, exc) from None
    try:
        await _write_body(response, new.binary, on_progress)
        await asyncio.to_thread(new.commit)
    except BaseException as exc:
        # Cancelled or failed: leave neither a partial file nor a temporary one.
        new.abandon()
        if isinstance(exc, OSError):
            raise DownloadNotSaved.from_os_error(path, exc) from None
        raise
    return path


async def _write_body(
    response: httpx.Response, handle: BinaryIO, on_progress: OnProgress | None
) -> None:
    total = _total(response)
    written = 0
    if on_progress is not None:
        on_progress(0, total)
    try:
        async for chunk in raw_chunks(response):
            handle.write(chunk)
            written += len(chunk)
            if on_progress is not None:
                on_progress(written, total)
    except httpx.TimeoutException:
        raise RequestTimeout(f"The download stopped arriving after {written} bytes.") from None
    except httpx.TransportError as exc:
        raise ConnectionFailed(
            f"The connection broke after {written} bytes ({type(exc).__name__})."
        ) from None
    if total is not None and written != total:
        raise ConnectionFailed(f"The download ended after {written} of {total} bytes.")
    handle.flush()
