"""Files a command writes: where `-o` sends it (standard output, a file, a free name in a
folder), a listing written atomically, and an export's archive saved with a progress bar.

`-o -` is standard output, and so is a path naming the very terminal or pipe standard output
already is (`/dev/stdout`). Anything else that exists and is not a regular file (a device, a
FIFO, a link) is refused by the writer (`NewFile`), never replaced nor written through.
`-o DIR/` names a folder, which must exist: what is written gets a free name inside it. The
archive's download is the client's (a new exclusive file beside the target, fsync, atomic
rename), as in the app; `-o -` streams it to standard output instead.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import BinaryIO, Final, TextIO

from leadtui.api.downloads import OnProgress
from leadtui.cli.failures import usage_failure, write_failure
from leadtui.cli.output import isatty
from leadtui.cli.runtime import Context
from leadtui.config.download_folder import free_path
from leadtui.durable import NewFile, refuse_unless_regular

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


def output_path(given: str, name: str) -> Path:
    """`-o FILE`; `-o DIR/` (or an existing folder) gets a free name made from `name` inside
    it. The folder must exist."""
    path = Path(given).expanduser()
    try:
        if path.is_dir():
            return free_path(path, name)
    except OSError as exc:
        raise write_failure(given, exc) from None
    if given.endswith(("/", os.sep)):
        raise usage_failure(
            f"Cannot write {given}: no such folder.",
            hint="Create the folder first (mkdir -p), or name a file.",
        )
    return path


class AtomicTextFile:
    """`-o FILE`: written to a new exclusive file beside FILE, which takes FILE's place once
    complete (see `NewFile`: a FILE that is not a regular file is refused)."""

    def __init__(self, path: Path) -> None:
        self._file = NewFile(path)
        self.path = path
        self.stream: TextIO = self._file.text()

    def commit(self) -> Path:
        self.stream.flush()
        return self._file.commit()

    def abandon(self) -> None:
        self._file.abandon()


BAR_WIDTH: Final = 30

# Where the archive goes: a path, or an open binary stream (standard output).
Fetch = Callable[[Path | BinaryIO, OnProgress], Awaitable[object]]


def _bar(ctx: Context, label: str) -> OnProgress:
    def show(done: int, total: int | None) -> None:
        if total:
            filled = int(BAR_WIDTH * min(done, total) / total)
            bar = "█" * filled + "·" * (BAR_WIDTH - filled)
            ctx.out.progress(f"{label} {bar} {done / total:4.0%} of {total:,} bytes")
        else:
            ctx.out.progress(f"{label} {done:,} bytes")

    return show


def _binary_stdout(ctx: Context) -> BinaryIO:
    """Standard output for the archive's bytes, or a usage failure saying why not."""
    if ctx.out.machine:
        raise usage_failure(
            "-o - writes the archive to stdout, where --json prints its document. Nothing was "
            "sent.",
            hint="Drop --json, or name a file or folder with -o.",
        )
    if isatty(ctx.out.stdout):
        raise usage_failure(
            "-o - would print a ZIP archive on the terminal. Nothing was sent.",
            hint="Redirect it (> FILE) or pipe it (| unzip ...), or name a file with -o.",
        )
    binary: BinaryIO | None = getattr(ctx.out.stdout, "buffer", None)
    if binary is None:
        raise usage_failure("Standard output takes no bytes here. Nothing was sent.")
    ctx.out.stdout.flush()
    return binary


async def save_archive(ctx: Context, export_id: str, name: str, fetch: Fetch) -> None:
    """Download to -o PATH (a file, or a folder), -o - (stdout), else a free name in
    download_dir."""
    given: str | None = getattr(ctx.ns, "output", None)
    label = f"{export_id} →"
    if given and names_stdout(given, ctx.out.stdout):
        await fetch(_binary_stdout(ctx), _bar(ctx, label))
        ctx.out.progress(f"{export_id} → stdout", done=True)
        return
    if given:
        target = output_path(given, name)
    else:  # a free name in download_dir, made when missing
        try:
            target = free_path(ctx.resolved.download_dir, name)
        except OSError as exc:
            raise write_failure(ctx.resolved.download_dir, exc) from None
    try:
        await fetch(target, _bar(ctx, label))
    except OSError as exc:
        raise write_failure(target, exc, " Nothing was left half-written.") from None
    size = target.stat().st_size
    ctx.out.progress(f"{export_id} → {target}", done=True)
    if ctx.out.machine:
        ctx.out.document({"exportId": export_id, "path": str(target), "bytes": size})
    else:
        ctx.out.line(str(target))


def download_folder(given: str) -> Path:
    """`--download DIR`: the folder, made (with its parents) when missing, before anything is
    spent: a spend must not be lost to a folder that was never there."""
    folder = Path(given).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise usage_failure(f"--download {given}: it is not a folder. Nothing was sent.") from None
    except OSError as exc:
        raise write_failure(given, exc, " Nothing was sent.") from None
    return folder


async def save_once(ctx: Context, export_id: str, folder: Path) -> tuple[Path, bool]:
    """The export's ZIP as `folder/EXPORT_ID.zip`, downloaded unless it is there already (a
    run again finds what the first one saved; a download is only ever renamed there whole).
    Returns the path and whether it was downloaded now."""
    target = folder / f"{export_id}.zip"
    try:
        refuse_unless_regular(target)
        if target.exists():
            return target, False
        client = ctx.client()
        await client.exports.download(export_id, target, on_progress=_bar(ctx, f"{export_id} →"))
    except OSError as exc:
        raise write_failure(target, exc, " Nothing was left half-written.") from None
    ctx.out.progress(f"{export_id} → {target}", done=True)
    return target, True
