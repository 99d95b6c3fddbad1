"""The tool server driven by the official `mcp` client: over stdio against a real `leadtui
sandbox` process (end to end), or in process against the in-process sandbox, where the
clock and the sleep are the test's."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.session import ClientSession, ElicitationFnT
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, Implementation

from leadtui.mcp.runtime import McpDeps, Options, Runtime
from leadtui.mcp.server import build_server
from tests.conftest import FakeClock
from tests.e2e.sandbox_process import clean_env, sandbox_process, slowed

SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


def error_of(result: CallToolResult) -> dict[str, Any]:
    """The error object of an `isError` result (fails on a success)."""
    assert result.is_error, result.content
    assert result.structured_content is not None
    error: dict[str, Any] = result.structured_content["error"]
    return error


def ok(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a successful result (fails on an error)."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@dataclass
class Sandbox:
    """A `leadtui sandbox` process, and its levers under /_sandbox."""

    base_url: str

    def control(
        self,
        method: str,
        path: str,
        body: Any = None,
        key: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """A direct request: a `/_sandbox` lever, or the API as `key` (for a test's setup)."""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        response = httpx.request(
            method, self.base_url + path, json=body, headers=headers, timeout=30.0
        )
        response.raise_for_status()
        return response.json()["data"]

    def slowed(self, latency_ms: int) -> AbstractContextManager[None]:
        """Every API request takes `latency_ms` more until the block ends."""
        return slowed(self.base_url, latency_ms)

    def credits(self, account: str = "acct_demo") -> int:
        return int(self.control("PATCH", f"/_sandbox/accounts/{account}", {})["credits"])

    def requests(self) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = self.control("GET", "/_sandbox/requests")
        return records

    def spending_requests(self) -> list[dict[str, Any]]:
        """Every unlock or extraction create/launch the sandbox received."""
        return [
            r
            for r in self.requests()
            if r["method"] == "POST"
            and (
                r["path"].endswith("/exports")
                or r["path"].endswith("/launch")
                or r["path"].endswith("/api/v1/extractions")
            )
        ]

    def new_search(self, key: str = "sk_demo_full") -> str:
        return str(self.control("POST", "/api/v1/searches", SEARCH, key=key)["searchId"])


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    """One real sandbox for the module; each test makes what it needs on it."""
    with sandbox_process("--job-seconds", "0.3") as base_url:
        yield Sandbox(base_url)


@dataclass
class Machine:
    """This test's machine for a server process: its own config, state and downloads."""

    home: Path
    sandbox: Sandbox
    received: list[str] = field(default_factory=list)
    """Every result and notification the client received, as JSON text."""

    @property
    def downloads(self) -> Path:
        return self.home / "downloads"

    def env(self, key: str = "sk_demo_full") -> dict[str, str]:
        return clean_env() | {
            "LEADTUI_BASE_URL": self.sandbox.base_url,
            "LEADTUI_API_KEY": key,
            "LEADTUI_DOWNLOAD_DIR": str(self.downloads),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "XDG_STATE_HOME": str(self.home / "state"),
        }

    @asynccontextmanager
    async def session(
        self,
        *options: str,
        key: str = "sk_demo_full",
        elicitation: ElicitationFnT | None = None,
        client_info: Implementation | None = None,
    ) -> AsyncIterator[ClientSession]:
        """`leadtui mcp OPTIONS…` over stdio, initialized, with the official client (named
        `client_info` at `initialize`; asking its user only with an `elicitation` callback)."""
        server = StdioServerParameters(
            command=sys.executable, args=["-m", "leadtui", "mcp", *options], env=self.env(key)
        )
        with (self.home / "server-stderr.txt").open("a") as errlog:
            async with (
                stdio_client(server, errlog=errlog) as (read, write),
                ClientSession(
                    read, write, elicitation_callback=elicitation, client_info=client_info
                ) as session,
            ):
                await session.initialize()
                yield session

    def command(self, *argv: str) -> dict[str, Any]:
        """`leadtui ARGV --json` on this machine (another process); its JSON document."""
        done = subprocess.run(
            [sys.executable, "-m", "leadtui", *argv, "--json"],
            capture_output=True,
            text=True,
            env=self.env(),
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        document: dict[str, Any] = json.loads(done.stdout)
        return document

    async def call(
        self, session: ClientSession, tool: str, arguments: dict[str, Any] | None = None
    ) -> CallToolResult:
        """Call `tool`, keeping everything received for the secrecy checks."""

        async def progress(done: float, total: float | None, message: str | None) -> None:
            self.received.append(json.dumps([done, total, message]))

        result = await session.call_tool(tool, arguments or {}, progress_callback=progress)
        self.received.append(result.model_dump_json())
        return result


@pytest.fixture
def machine(tmp_path: Path, sandbox: Sandbox) -> Machine:
    return Machine(tmp_path, sandbox)


# --- In process: the same server, the in-process sandbox, the test's clock ----------------

URL = "http://127.0.0.1"


@dataclass
class Clock:
    """The server's clock and sleep: sleeping moves the sandbox's clock, never real time."""

    sandbox_clock: FakeClock
    now: float = 0.0
    sleeps: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        self.sandbox_clock.advance(seconds)


@pytest.fixture
def clock(sandbox_clock: FakeClock) -> Clock:
    return Clock(sandbox_clock)


@pytest.fixture
def in_process(
    sandbox_app: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Any:
    """`async with in_process(max_credits=…) as client:` the server in this process, against
    this test's in-process sandbox, with the official client (its newest protocol; the
    initialize handshake with `legacy=True`)."""
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    monkeypatch.setenv("LEADTUI_DOWNLOAD_DIR", str(tmp_path / "downloads"))

    @asynccontextmanager
    async def connect(
        *,
        elicitation: ElicitationFnT | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        legacy: bool = False,
        ask_seconds: float = 300.0,
        **options: Any,
    ) -> AsyncIterator[Client]:
        deps = McpDeps(
            transport=transport or httpx.ASGITransport(app=sandbox_app),
            sleep=clock.sleep,
            clock=clock,
            ask_seconds=ask_seconds,
        )
        runtime = Runtime(Options(**options), deps)
        mode = "legacy" if legacy else "auto"
        server = build_server(runtime)
        try:
            async with Client(server, elicitation_callback=elicitation, mode=mode) as client:
                yield client
        finally:
            await runtime.aclose()

    return connect
