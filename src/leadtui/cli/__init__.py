"""The command line. `main` is the `leadtui` command itself: a bare `leadtui`, the app as a person
starts it, opens without importing or building the parser (`cli/main.py`), ~5 ms of the first
frame's CPU (bench/bench_startup.py); anything else is the parser's.
"""

from __future__ import annotations

import gc
import sys


def main() -> int:
    if sys.argv[1:]:
        from leadtui.cli.main import main as command_line

        return command_line()
    # What `cli/main.py` does for no arguments (tests/cli/test_main.py holds the two alike):
    # the collector off for start-up, then the app with no profile or server named.
    gc.disable()
    from leadtui.ui.frame.launch import run

    return run()
