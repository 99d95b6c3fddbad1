"""Streaming an archive to disk: `NAME.part`, fsync, atomic rename; nothing half-written stays."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import httpx

from leadtui.api.errors import ConnectionFailed, RequestTimeout
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
    """Write the unread body of `response` to `path`, atomically, in constant memory."""
    part = part_path(path)
    total = _total(response)
    # Content-Length counts bytes on the wire; they differ from bytes written only when encoded.
    encoded = response.headers.get("Content-Encoding", "identity").lower() != "identity"
    written = 0

    def done() -> int:
        return response.num_bytes_downloaded if encoded else written

    try:
        with part.open("wb") as handle:
            if on_progress is not None:
                on_progress(0, total)
            try:
                async for chunk in response.aiter_bytes():
                    handle.write(chunk)
                    written += len(chunk)
                    if on_progress is not None:
                        on_progress(done(), total)
            except httpx.TimeoutException:
                raise RequestTimeout(
                    f"The download stopped arriving after {done()} bytes."
                ) from None
            except httpx.TransportError as exc:
                raise ConnectionFailed(
                    f"The connection broke after {done()} bytes ({type(exc).__name__})."
                ) from None
            if total is not None and done() != total:
                raise ConnectionFailed(f"The download ended after {done()} of {total} bytes.")
            handle.flush()
            await asyncio.to_thread(os.fsync, handle.fileno())
        await asyncio.to_thread(_replace, part, path)
    except BaseException:
        # Cancelled or failed: leave neither a partial file nor a stale `.part`.
        with contextlib.suppress(OSError):
            part.unlink()
        raise
    return path
