"""What the start-up benches share: a fresh environment, timing a process, the leadtui to time.

Every start-up bench runs programs as fresh processes, alternating, side by side in one run,
against an in-process sandbox (so its imports are not counted), with the key from
LEADTUI_API_KEY. `--against` names another installed leadtui (an older checkout's
`.venv/bin/leadtui`, say) to time in the same alternation: the way to tell whether a change
made start-up slower, on a machine too noisy for absolute times.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def leadtui_command() -> str:
    """The console script installed beside this interpreter: what a user runs."""
    return str(Path(sys.executable).with_name("leadtui"))


def add_against(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--against",
        metavar="LEADTUI",
        help="another installed leadtui (its console script) to time side by side",
    )


def bench_env(home: str, base_url: str) -> dict[str, str]:
    """This environment without any LEADTUI_ setting, pointed at `home` and the sandbox."""
    return {k: v for k, v in os.environ.items() if not k.startswith("LEADTUI_")} | {
        "XDG_CONFIG_HOME": f"{home}/config",
        "XDG_STATE_HOME": f"{home}/state",
        "LEADTUI_BASE_URL": base_url,
        "LEADTUI_API_KEY": "sk_demo_full",
    }


def children_cpu() -> float:
    """CPU seconds (user + sys) used so far by waited-for children: on a busy machine it
    varies far less than wall time."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_seconds(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `command`, spawn to exit."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command} failed: {done.stderr.decode()[-500:]}")
    return elapsed, children_cpu() - cpu
