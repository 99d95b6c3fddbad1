"""Start-up benches measure leadtui as installed: with its modules' bytecode on disk.

A wheel install compiles it; an editable install writes it on the first run, unless
PYTHONDONTWRITEBYTECODE is set (as on some CI machines), when every run would compile
leadtui's sources again (~60 ms) while Textual's and httpx's bytecode is already there.
"""

from __future__ import annotations

import compileall
from pathlib import Path


def compile_leadtui() -> None:
    """Write the bytecode of every leadtui module (a no-op when it is up to date)."""
    import leadtui

    compileall.compile_dir(Path(leadtui.__file__).parent, quiet=1)
