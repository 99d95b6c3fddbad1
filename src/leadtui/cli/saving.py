"""Saving an export's archive: where it goes, a progress bar on a terminal, and the path out.

The download itself is the client's (`NAME.part`, fsync, atomic rename), as in the app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from leadtui.api.downloads import OnProgress
from leadtui.cli.failures import write_failure
from leadtui.cli.runtime import Context
from leadtui.config.download_folder import free_path

BAR_WIDTH: Final = 30


def _target(ctx: Context, name: str) -> Path:
    given = getattr(ctx.ns, "output", None)
    if given:
        path = Path(given).expanduser()
        return free_path(path, name) if path.is_dir() else path
    return free_path(ctx.resolved.download_dir, name)


def _bar(ctx: Context, label: str) -> OnProgress:
    def show(done: int, total: int | None) -> None:
        if total:
            filled = int(BAR_WIDTH * min(done, total) / total)
            bar = "█" * filled + "·" * (BAR_WIDTH - filled)
            ctx.out.progress(f"{label} {bar} {done / total:4.0%} of {total:,} bytes")
        else:
            ctx.out.progress(f"{label} {done:,} bytes")

    return show


async def save_archive(
    ctx: Context,
    export_id: str,
    name: str,
    fetch: Callable[[Path, OnProgress], Awaitable[Path]],
) -> Path:
    """Download to -o PATH (a file, or a folder), else a free name in download_dir."""
    try:
        target = _target(ctx, name)
    except OSError as exc:
        raise write_failure(getattr(ctx.ns, "output", None) or "the download folder", exc) from None
    try:
        path = await fetch(target, _bar(ctx, f"{export_id} →"))
    except OSError as exc:
        raise write_failure(target, exc, " Nothing was left half-written.") from None
    size = path.stat().st_size
    ctx.out.progress(f"{export_id} → {path}", done=True)
    if ctx.out.machine:
        ctx.out.document({"exportId": export_id, "path": str(path), "bytes": size})
    else:
        ctx.out.line(str(path))
    return path
