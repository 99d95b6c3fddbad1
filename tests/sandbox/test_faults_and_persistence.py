"""Fault injection with a seed, latency, a restart with --db, and a loopback server."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox
from tests.sandbox.helpers import API, auth, create_search, unlock


def _client(config: SandboxConfig) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(config))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


async def _outcomes(config: SandboxConfig, n: int) -> list[str]:
    out = []
    async with _client(config) as http:
        for _ in range(n):
            try:
                r = await http.get(f"{API}/me", headers=auth())
                out.append(
                    str(r.status_code)
                    + (":" + r.headers["Retry-After"] if r.status_code == 503 else "")
                )
            except httpx.TransportError:
                out.append("cut")
    return out


@pytest.mark.slow  # thousands of requests
async def test_fault_rate_statistics_are_seeded() -> None:
    config = SandboxConfig(fault_rate=0.3, fault_seed=7)
    outcomes = await _outcomes(config, 400)
    assert outcomes == await _outcomes(SandboxConfig(fault_rate=0.3, fault_seed=7), 400)
    faults = [o for o in outcomes if o != "200"]
    assert 0.22 < len(faults) / 400 < 0.38
    before = [o for o in faults if o.startswith("503")]
    after = [o for o in faults if o in ("502", "cut")]
    assert len(before) + len(after) == len(faults)
    assert 0.3 < len(before) / len(faults) < 0.7
    assert {"503:0", "503:1"} <= set(before)
    assert {"502", "cut"} <= set(after)


async def test_fault_after_commit_keeps_the_effect_and_the_key_replays() -> None:
    config = SandboxConfig(fault_rate=1.0, fault_seed=1)
    app = create_app(config)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as http:
        config.fault_rate = 0.0
        s = await create_search(http)
        config.fault_rate = 1.0
        after_commit = 0
        for _attempt in range(30):
            try:
                r = await unlock(http, s["searchId"], 2, "retry-me")
            except httpx.TransportError:
                after_commit += 1
                continue
            if r.status_code == 502:
                after_commit += 1
        config.fault_rate = 0.0
        r = await unlock(http, s["searchId"], 2, "retry-me")
        assert r.status_code == 202
        assert after_commit > 0
        me = (await http.get(f"{API}/me", headers=auth())).json()["data"]
        assert me["credits"] == 10_000 - 2  # many attempts, one debit
        log = (await http.get("/_sandbox/requests")).json()["data"]
        assert {e["fault"] for e in log} >= {"503", "502", "cut", None}


async def test_latency_delays_every_response() -> None:
    async with _client(SandboxConfig(latency_ms=60)) as http:
        started = time.perf_counter()
        await http.get(f"{API}/me", headers=auth())
        assert time.perf_counter() - started >= 0.06


async def test_the_traffic_lever_makes_the_api_slower_or_faultier_while_it_runs() -> None:
    async with _client(SandboxConfig(fault_seed=3)) as http:
        changed = await http.patch("/_sandbox/traffic", json={"latency_ms": 60, "fault_rate": 1})
        assert changed.json()["data"] == {"latency_ms": 60, "fault_rate": 1.0}
        started = time.perf_counter()
        try:
            failed = (await http.get(f"{API}/me", headers=auth())).status_code
        except httpx.TransportError:
            failed = 0  # a cut connection
        assert time.perf_counter() - started >= 0.06
        assert failed != 200
        kept = await http.patch("/_sandbox/traffic", json={"fault_rate": 0})
        assert kept.json()["data"] == {"latency_ms": 60, "fault_rate": 0.0}
        assert (await http.get(f"{API}/me", headers=auth())).status_code == 200
        for wrong in ({"fault_rate": 1.5}, {"latency_ms": -1}, {"jitter_ms": 5}):
            refused = await http.patch("/_sandbox/traffic", json=wrong)
            assert refused.status_code == 400, wrong
        assert (await http.patch("/_sandbox/traffic", json={})).json()["data"]["latency_ms"] == 60


async def test_restart_with_db_keeps_state(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    async with _client(SandboxConfig(db_path=db)) as http:
        s = await create_search(http)
        export = (await unlock(http, s["searchId"], 4, "k")).json()["data"]
    async with _client(SandboxConfig(db_path=db)) as http:
        me = (await http.get(f"{API}/me", headers=auth())).json()["data"]
        assert me["credits"] == 10_000 - 4
        r = await http.get(f"{API}/exports/{export['exportId']}", headers=auth())
        assert r.status_code == 200
        replay = await unlock(http, s["searchId"], 4, "k")
        assert replay.json()["data"]["exportId"] == export["exportId"]
        newer = await create_search(http)
        assert newer["searchId"] != s["searchId"]
    async with _client(SandboxConfig()) as http:
        assert (await http.get(f"{API}/me", headers=auth())).json()["data"]["credits"] == 10_000


@pytest.mark.slow  # a server on a loopback socket
def test_embedded_sandbox_serves_on_loopback_and_cuts_connections() -> None:
    with EmbeddedSandbox(SandboxConfig(job_seconds=0.3)) as sandbox:
        assert sandbox.base_url.startswith("http://127.0.0.1:")
        r = httpx.get(f"{sandbox.base_url}{API}/me", headers=auth())
        assert r.status_code == 200
        assert r.json()["data"]["account"]["name"] == "Demo Co"
        sandbox.app.state.sandbox.config.fault_rate = 1.0
        kinds = set()
        for _ in range(30):
            try:
                kinds.add(httpx.get(f"{sandbox.base_url}{API}/me", headers=auth()).status_code)
            except httpx.TransportError:
                kinds.add(0)
        assert kinds == {0, 502, 503}
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{sandbox.base_url}{API}/", timeout=1)
