"""Requests per second of the sandbox (GET /me, an unlock) against a bare FastAPI endpoint,
all served by uvicorn on loopback in the same run; prints each figure and the ratios.

    .venv/bin/python bench/bench_sandbox.py [--seconds 3] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox

AUTH = {"Authorization": "Bearer sk_demo_full"}


class BareServer:
    """The baseline: one FastAPI endpoint returning a small JSON body, nothing else."""

    def __init__(self) -> None:
        app = FastAPI()

        @app.get("/ping")
        async def ping() -> dict[str, Any]:
            return {"data": {"ok": True}}

        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.bind(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        self._server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
        )
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    def __enter__(self) -> BareServer:
        self._thread.start()
        while not self._server.started:
            time.sleep(0.01)
        return self

    def __exit__(self, *_: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)
        self._socket.close()


Call = Callable[[httpx.AsyncClient], Coroutine[Any, Any, httpx.Response]]


async def measure(base_url: str, call: Call, seconds: float, concurrency: int) -> float:
    """Requests per second over `seconds`, with `concurrency` requests in flight."""
    done = 0
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=10) as client:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                response = await call(client)
                if response.status_code >= 300:
                    raise SystemExit(f"unexpected {response.status_code}: {response.text}")
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return done / elapsed


async def run(seconds: float, concurrency: int) -> None:
    keys = itertools.count()
    with BareServer() as bare, EmbeddedSandbox(SandboxConfig(job_seconds=1)) as sandbox:
        async with httpx.AsyncClient(base_url=sandbox.base_url) as setup:
            await setup.patch("/_sandbox/accounts/acct_demo", json={"credits": 10**9})
            body = {
                "activities": [{"name": f"Activity {i}"} for i in range(20)],
                "countries": [{"name": "France"}],
                "localisations": [{"name": f"Town {i}"} for i in range(20)],
            }
            r = await setup.post("/api/v1/searches", headers=AUTH, json=body)
            search_id = r.json()["data"]["searchId"]

        async def ping(c: httpx.AsyncClient) -> httpx.Response:
            return await c.get("/ping")

        async def me(c: httpx.AsyncClient) -> httpx.Response:
            return await c.get("/api/v1/me", headers=AUTH)

        async def unlock(c: httpx.AsyncClient) -> httpx.Response:
            return await c.post(
                f"/api/v1/searches/{search_id}/exports",
                headers={**AUTH, "Idempotency-Key": f"bench-{next(keys)}"},
                json={"additional_results": 1},
            )

        bare_rps = await measure(bare.base_url, ping, seconds, concurrency)
        me_rps = await measure(sandbox.base_url, me, seconds, concurrency)
        unlock_rps = await measure(sandbox.base_url, unlock, seconds, concurrency)

    print(f"bare FastAPI GET /ping : {bare_rps:8.0f} req/s")
    print(f"sandbox GET /me        : {me_rps:8.0f} req/s  ({me_rps / bare_rps:.2f}x bare)")
    print(f"sandbox unlock (POST)  : {unlock_rps:8.0f} req/s  ({unlock_rps / bare_rps:.2f}x bare)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=8)
    ns = parser.parse_args()
    asyncio.run(run(ns.seconds, ns.concurrency))


if __name__ == "__main__":
    main()
