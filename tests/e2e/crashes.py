"""Run `crash_spender.py` as a child and SIGKILL it once it has sent: a spend whose outcome
was never recorded, as a real crash leaves it."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from tests.e2e.sandbox_process import clean_env

CRASH_SCRIPT = Path(__file__).with_name("crash_spender.py")


async def crash_after_sending(
    base_url: str, journal_path: Path, search_id: str, results: int, key: str, api_key: str
) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CRASH_SCRIPT),
        base_url,
        str(journal_path),
        search_id,
        str(results),
        key,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=clean_env() | {"LEADTUI_API_KEY": api_key},
    )
    try:
        assert child.stdout is not None
        line = await asyncio.wait_for(child.stdout.readline(), timeout=30)
        assert line.startswith(b"SENT"), line
    finally:
        child.send_signal(signal.SIGKILL)
        await asyncio.wait_for(child.wait(), timeout=10)
    assert child.returncode == -signal.SIGKILL
