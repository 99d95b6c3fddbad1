"""The real `leadtui sandbox` command as a child process on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

import httpx

_START_SECONDS = 20.0
_STOP_SECONDS = 5.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def clean_env() -> dict[str, str]:
    """This environment without LEADTUI_* (the tests' isolation applies to children too)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("LEADTUI_")}


@contextmanager
def sandbox_process(*options: str) -> Iterator[str]:
    """`python -m leadtui sandbox --port P OPTIONS…`; yields its base URL once it answers."""
    port = free_port()
    # A file, not a pipe: a full pipe would block the server's logging, and so the server.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "leadtui", "sandbox", "--port", str(port), *options],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=clean_env(),
        )
        base_url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_answering(process, base_url, log)
            yield base_url
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def slowed(base_url: str, latency_ms: int) -> Iterator[None]:
    """Every API request of the sandbox at `base_url` takes `latency_ms` more until the block
    ends (its traffic lever): a spend stays in flight long enough to be killed, and the rest
    of the test runs at full speed."""
    _traffic(base_url, latency_ms)
    try:
        yield
    finally:
        _traffic(base_url, 0)


def _traffic(base_url: str, latency_ms: int) -> None:
    lever = httpx.patch(f"{base_url}/_sandbox/traffic", json={"latency_ms": latency_ms}, timeout=30)
    lever.raise_for_status()


def _wait_until_answering(process: subprocess.Popen[bytes], base_url: str, log: IO[bytes]) -> None:
    # /_sandbox/* lies outside /api/v1, so injected faults never touch this probe.
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            err = log.read().decode(errors="replace")
            raise RuntimeError(f"the sandbox exited with {process.returncode}: {err[-2000:]}")
        try:
            if httpx.get(f"{base_url}/_sandbox/keys", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the sandbox did not answer on {base_url} within {_START_SECONDS} s")
