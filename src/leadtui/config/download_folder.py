"""Where downloads go: a free name in a folder (an earlier file is never overwritten) and
whether a folder the user typed can take files. Blocking: the app calls these in a thread.
"""

from __future__ import annotations

import itertools
import os
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from leadtui.durable import os_error_reason

# A file name made from an id keeps these characters; any other becomes `_`.
_NAME_CHARS: Final = frozenset(string.ascii_letters + string.digits + "._-")
NAME_MAX: Final = 120


def file_name(name: str) -> str:
    """`name` as a file name that stays inside its folder, whatever an id (from the server or
    the user: `../../escaped`, `a/b`) holds: a leading dot is dropped (no hidden file, no `..`),
    long names are cut keeping the extension."""
    kept = "".join(char if char in _NAME_CHARS else "_" for char in name).lstrip(".")
    stem, dot, suffix = kept.rpartition(".")
    if dot and len(suffix) <= 8 and len(kept) > NAME_MAX:
        kept = stem[: NAME_MAX - len(suffix) - 1] + "." + suffix
    return kept[:NAME_MAX] or "download"


def free_path(folder: Path, name: str) -> Path:
    """`folder/name` (made safe: always directly in `folder`, created when missing), or
    `name-1`, `name-2`… where a name is taken by anything, even a link to nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / file_name(name)
    stem, suffix = target.stem, target.suffix
    n = 1
    while target.exists() or target.is_symlink():
        target = folder / f"{stem}-{n}{suffix}"
        n += 1
    return target


@dataclass(frozen=True)
class FolderCheck:
    """What a typed folder comes to: the absolute `folder`, or the `problem` in a few words;
    `new` when it does not exist yet and will be created by the first file."""

    folder: Path | None
    problem: str | None = None
    new: bool = False


def control_character(text: str) -> str | None:
    """Where `text` holds a control character, which no folder name may: the OS refuses it
    only when a file is written."""
    at = next((n for n, char in enumerate(text, start=1) if char < " " or char == "\x7f"), None)
    return None if at is None else f"character {at} is a control character"


def _refused(problem: str) -> FolderCheck:
    return FolderCheck(None, problem)


def check_folder(typed: str) -> FolderCheck:
    """Whether files can be saved in the folder `typed` (`~` is the home folder, a relative
    path is from the working directory): it exists and is a writable folder, or the nearest
    part of it that exists is one, so it can be created."""
    text = typed.strip()
    if not text:
        return _refused("type a folder")
    problem = control_character(text)
    if problem is not None:
        return _refused(problem)
    try:
        path = Path(text).expanduser()
    except RuntimeError:  # ~name of no known user, or no home folder at all
        return _refused(f"{text.split('/', 1)[0]} names no home folder")
    existing, new = path, False
    try:
        if not path.is_absolute():
            path = existing = Path.cwd() / path
        while not existing.exists():
            if existing.is_symlink():
                return _refused(f"{existing} is a link to nothing")
            existing, new = existing.parent, True
        if not existing.is_dir():
            return _refused(f"{existing} is a file, not a folder")
        if not os.access(existing, os.W_OK | os.X_OK):
            if existing == path:
                return _refused("this folder is not writable (permission denied)")
            return _refused(f"it cannot be created in {existing} (permission denied)")
    except OSError as error:  # a folder that cannot even be looked at
        return _refused(f"{error.filename or path}: {os_error_reason(error)}")
    return FolderCheck(path, new=new)


def complete_folder(typed: str, *, limit: int = 2000) -> str | None:
    """`typed` completed with the first subfolder (by name) whose name goes on from what was
    typed after the last `/`, ending in `/`; None when there is none. A leading `~` stays as
    typed. Looks at no more than `limit` entries of the folder (a huge one stays quick)."""
    head, sep, partial = typed.rpartition("/")
    if not sep:
        return None
    try:
        parent = Path(head + sep).expanduser()
        with os.scandir(parent) as entries:
            looked_at = itertools.islice(entries, limit)
            names = [e.name for e in looked_at if e.name.startswith(partial) and e.is_dir()]
    except (OSError, RuntimeError):
        return None
    hidden = partial.startswith(".")
    shown = sorted(name for name in names if hidden or not name.startswith("."))
    return f"{typed}{shown[0][len(partial) :]}/" if shown else None
