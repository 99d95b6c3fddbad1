"""Requests per minute the jobs dashboard costs with few vs many settled jobs, side by side.

Each scenario seeds an in-process sandbox (ASGI, a hand-moved clock), then runs the real
`JobPoller` for one simulated minute of polling: tick, wait `next_interval()`, tick… The
sandbox's request log counts what the watcher sent. Also runs a minute with jobs still moving.

    .venv/bin/python bench/bench_jobs_polling.py [--few 5] [--many 500]
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import httpx

from leadtui.api.client import LeadClient
from leadtui.config.settings import MAX_SETTLED_REQUESTS_PER_MINUTE, Polling
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.ui.model.job_board import JobPoller

START = 1_767_225_600.0
SEARCH = {
    "activities": [{"name": "Plumber"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def _minute(settled: int, moving: int) -> int:
    """Requests sent by one simulated minute of polling over `settled` + `moving` exports."""
    clock = Clock()
    sandbox = create_app(SandboxConfig(job_seconds=5.0, clock=clock))
    transport = httpx.ASGITransport(app=sandbox)
    async with (
        LeadClient("http://127.0.0.1", "sk_demo_full", transport=transport) as client,
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as control,
    ):
        search = (await client.searches.create(SEARCH)).searchId
        for _ in range(settled):
            await client.exports.create(search, 1)
        clock.now += 3600  # all settled
        for _ in range(moving):
            await client.exports.create(search, 1)
        before = len((await control.get("/_sandbox/requests")).json()["data"])
        poller = JobPoller(lambda: client, Polling)
        elapsed = 0.0
        while elapsed < 60:
            await poller.tick(clock.now)
            step = poller.next_interval()
            elapsed += step
            clock.now += step
        log: list[dict[str, Any]] = (await control.get("/_sandbox/requests")).json()["data"]
        return len(log) - before


async def main(few: int, many: int) -> None:
    few_rate = await _minute(few, 0)
    many_rate = await _minute(many, 0)
    moving_rate = await _minute(few, 2)
    print(f"settled jobs {few:>4}: {few_rate:>3} requests/minute")
    print(f"settled jobs {many:>4}: {many_rate:>3} requests/minute")
    print(f"{few} settled + 2 moving: {moving_rate:>3} requests/minute (fast while moving)")
    print(f"ratio {many} vs {few} settled: {many_rate / few_rate:.2f}x")
    print(f"bound while settled: {MAX_SETTLED_REQUESTS_PER_MINUTE} requests/minute")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--few", type=int, default=5)
    parser.add_argument("--many", type=int, default=500)
    args = parser.parse_args()
    asyncio.run(main(args.few, args.many))
