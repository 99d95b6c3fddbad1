"""Running `leadtui <command>` in-process against this test's sandbox: `main(argv, deps)` with
the ASGI transport, an injected clock and sleep (sleeping moves the sandbox's clock, never real
time), captured streams, and a prompt that answers what the test says."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.cli.main import main
from leadtui.cli.runtime import CliDeps
from leadtui.spend.journal import default_journal_path
from tests.conftest import FakeClock

URL = "http://127.0.0.1"
# The request that spends credits, as the sandbox's request log shows it.
UNLOCK_PATH_END = "/exports"


class Terminal(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def doc(self) -> Any:
        """stdout as exactly one JSON document (fails on anything else)."""
        return json.loads(self.out)

    @property
    def error(self) -> dict[str, Any]:
        error: dict[str, Any] = self.doc["error"]
        return error


@dataclass
class Cli:
    sandbox_app: Any
    sandbox_clock: FakeClock
    transport: httpx.AsyncBaseTransport
    sleeps: list[float] = field(default_factory=list)
    now: float = 0.0
    prompts: list[str] = field(default_factory=list)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        self.sandbox_clock.advance(seconds)

    @property
    def journal_path(self) -> Path:
        """The journal the app uses too: the commands are given no other."""
        return default_journal_path()

    def clock(self) -> float:
        return self.now

    def run(
        self,
        *argv: str,
        terminal: bool = False,
        answer: str = "",
        stdin: str = "",
        transport: httpx.AsyncBaseTransport | None = None,
        answers: Callable[[str], str] | None = None,
    ) -> Ran:
        """`answers(prompt)`, when given, answers each prompt (and may act meanwhile)."""
        out = io.StringIO()
        err: io.StringIO = Terminal() if terminal else io.StringIO()

        def ask(prompt: str) -> str:
            self.prompts.append(prompt)
            err.write(prompt)
            return answer if answers is None else answers(prompt)

        deps = CliDeps(
            transport=transport or self.transport,
            sleep=self.sleep,
            clock=self.clock,
            now=self.sandbox_clock,
            stdin=io.StringIO(stdin),
            stdout=out,
            stderr=err,
            interactive=lambda: terminal,
            ask=ask,
        )
        code = main(list(argv), deps)
        return Ran(code, out.getvalue(), err.getvalue())

    def control(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        """A direct request to the sandbox (the `/_sandbox` levers, or the API with `key`)."""

        async def call() -> Any:
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=self.sandbox_app), base_url=URL
            ) as http:
                response = await http.request(method, path, json=body, headers=headers)
                response.raise_for_status()
                return response.json()["data"]

        return asyncio.run(call())

    def credits(self, account: str = "acct_demo") -> int:
        return int(self.control("PATCH", f"/_sandbox/accounts/{account}", {})["credits"])

    def spending_requests(self) -> list[dict[str, Any]]:
        """Every unlock or extraction create/launch the sandbox received."""
        return [
            r
            for r in self.control("GET", "/_sandbox/requests")
            if r["method"] == "POST"
            and (
                r["path"].endswith(UNLOCK_PATH_END)
                or r["path"].endswith("/launch")
                or r["path"].endswith("/api/v1/extractions")
            )
        ]

    def new_search(self, key: str = "sk_demo_full", **extra: Any) -> str:
        """A search of the account of `key`, made directly (nothing of leadtui's)."""
        body = {
            "activities": [{"name": "Bakery"}, {"name": "Florist"}],
            "countries": [{"name": "France"}],
            "localisations": [{"name": "Paris"}, {"name": "Lyon"}],
            **extra,
        }
        created = self.control("POST", "/api/v1/searches", body, key=key)
        return str(created["searchId"])


@pytest.fixture
def cli(
    sandbox_app: Any, sandbox_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Cli]:
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    return Cli(
        sandbox_app,
        sandbox_clock,
        httpx.ASGITransport(app=sandbox_app),
    )
