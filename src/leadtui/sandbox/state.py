"""One sandbox instance: config, clock, store and the log of API requests it received."""

from __future__ import annotations

import random
import threading
from collections import deque
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from leadtui.sandbox.clock import SandboxClock
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.pagination import Pages
from leadtui.sandbox.pricing import Pricing
from leadtui.sandbox.store import Store

_LOG_LIMIT = 10_000


@dataclass
class RequestRecord:
    time: str
    method: str
    path: str
    status: int | None
    idempotency_key: str | None
    request_id: str
    fault: str | None = None
    body: str | None = None
    """The request body as received (UTF-8, undecodable bytes replaced), when there is one."""


class SandboxState:
    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.clock = SandboxClock(config.clock)
        self.store = Store(config.db_path)
        self.pages = Pages(self.store)
        self.fault_rng = random.Random(config.fault_seed)
        # Set by EmbeddedSandbox and the CLI: a "cut" fault then closes a real socket instead of
        # raising a transport error into an in-process httpx client.
        self.served_over_socket = False
        self.requests: deque[RequestRecord] = deque(maxlen=_LOG_LIMIT)
        self.lock = threading.Lock()
        self.pricing = Pricing()
        self.seed_demo_data()

    def seed_demo_data(self) -> None:
        """With `demo_data`, give Demo Co its month of history (once: a kept file has it)."""
        if self.config.demo_data:
            from leadtui.sandbox.demo_data import seed_demo

            seed_demo(self.store, self.now(), self.config.job_seconds)

    def now(self) -> float:
        return self.clock.now()

    def log(self, record: RequestRecord) -> None:
        with self.lock:
            self.requests.append(record)

    def reset(self) -> None:
        self.store.reset()
        self.clock.reset()
        self.seed_demo_data()
        self.pricing = Pricing()
        with self.lock:
            self.requests.clear()
            self.fault_rng = random.Random(self.config.fault_seed)


async def _sandbox_of(request: Request) -> SandboxState:
    # A coroutine: FastAPI would run a plain function in its thread pool, on every request.
    state = request.app.state.sandbox
    assert isinstance(state, SandboxState)
    return state


# A route's sandbox, as a parameter.
Sandbox = Annotated[SandboxState, Depends(_sandbox_of)]
