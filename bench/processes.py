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
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def sandbox_process() -> Iterator[str]:
    """`leadtui sandbox` in a process of its own on a free loopback port; yields its URL.

    For a bench that watches a screen: a sandbox inside the bench's process answers only
    when the bench's own loop (polling the screen) lets it, and a slow answer hides whatever
    the app does while it waits for GET /me. A server of its own answers as soon as it can.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADTUI_")}
    command = [sys.executable, "-m", "leadtui", "sandbox", "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        base_url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_answering(process, base_url)
            yield base_url
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_answering(process: subprocess.Popen[bytes], base_url: str) -> None:
    import httpx

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the sandbox exited with {process.returncode}")
        try:
            if httpx.get(f"{base_url}/_sandbox/keys", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the sandbox did not answer on {base_url} within 20 s")
