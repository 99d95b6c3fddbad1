"""Shared fixtures: every test runs isolated from the user's machine.

XDG dirs point under tmp_path, the keyring is in memory, and no LEADTUI_* variable leaks in.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest

from tests.support.memory_keyring import MemoryKeyring

# Fixtures that make a test slow (a second or more on two busy cores): the whole app driven
# by Pilot or compared with a snapshot, and the sandbox served from a process or a socket.
# Their tests are marked `slow`, so `pytest -m "not slow"` stays a quick day-to-day subset.
SLOW_FIXTURES = frozenset(
    {"build_app", "snap_compare", "sandbox", "live_sandbox", "served", "faulty_sandbox"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def isolated_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    for name in list(os.environ):
        if name.startswith("LEADTUI_"):
            monkeypatch.delenv(name)
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        path = tmp_path / "xdg" / var.lower()
        path.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(var, str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    try:
        yield memory
    finally:
        keyring.set_keyring(previous)


# --- Sandbox fixtures (the sandbox is our server; see src/leadtui/sandbox) ----------------


class FakeClock:
    """A clock tests move by hand, so job progress needs no sleeping."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01T00:00:00Z
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def sandbox_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sandbox_config(sandbox_clock: FakeClock) -> Any:
    """Short jobs on a clock tests step by hand (`sandbox_clock.advance`), never sleeping."""
    from leadtui.sandbox.config import SandboxConfig

    return SandboxConfig(job_seconds=0.3, clock=sandbox_clock)


@pytest.fixture
def sandbox_app(sandbox_config: Any) -> Any:
    from leadtui.sandbox.app import create_app

    return create_app(sandbox_config)


@pytest.fixture
async def sandbox_http(sandbox_app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=sandbox_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
async def make_client(sandbox_app: Any) -> AsyncIterator[Any]:
    """`make_client("sk_demo_low")` → a LeadClient over ASGI to this test's sandbox."""
    from leadtui.api.client import LeadClient

    made: list[LeadClient] = []

    def make(key: str = "sk_demo_full", **kwargs: Any) -> LeadClient:
        transport = httpx.ASGITransport(app=sandbox_app)
        made.append(LeadClient("http://127.0.0.1", key, transport=transport, **kwargs))
        return made[-1]

    yield make
    for lead_client in made:
        await lead_client.aclose()


@pytest.fixture
def client(make_client: Any) -> Any:
    """A LeadClient with `sk_demo_full` (all scopes, 10,000 credits) on the sandbox."""
    return make_client("sk_demo_full")
