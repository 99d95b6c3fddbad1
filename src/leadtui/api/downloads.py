"""Streaming an archive to disk: `NAME.part`, fsync, atomic rename; nothing half-written stays."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import httpx

from leadtui.api.bodies import raw_chunks
from leadtui.api.errors import ConnectionFailed, DownloadNotSaved, RequestTimeout
from leadtui.durable import fsync_dir

OnProgress = Callable[[int, int | None], None]


def part_path(path: Path) -> Path:
    return path.with_name(path.name + ".part")


def _total(response: httpx.Response) -> int | None:
    value = response.headers.get("Content-Length")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _replace(part: Path, path: Path) -> None:
    os.replace(part, path)
    fsync_dir(path.parent)


async def save_stream(
    response: httpx.Response, path: Path, on_progress: OnProgress | None = None
) -> Path:
    """Write the unread body of `response` to `path`, atomically, in constant memory.

    The body is written as it came: the transport refuses encoded archives. A file system
    that refuses the write raises DownloadNotSaved naming the path and the reason.
    """
    part = part_path(path)
    try:
        await _write_part(response, part, on_progress)
        await asyncio.to_thread(_replace, part, path)
    except BaseException as exc:
        # Cancelled or failed: leave neither a partial file nor a stale `.part`.
        with contextlib.suppress(OSError):
            part.unlink()
        if isinstance(exc, OSError):
            raise DownloadNotSaved.from_os_error(path, exc) from None
        raise
    return path


async def _write_part(response: httpx.Response, part: Path, on_progress: OnProgress | None) -> None:
    total = _total(response)
    written = 0
    with part.open("wb") as handle:
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
        await asyncio.to_thread(os.fsync, handle.fileno())
