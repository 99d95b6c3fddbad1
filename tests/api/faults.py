"""Scripted transport faults the sandbox cannot produce (proxies, dropped links, 503 storms).

Only for transport behaviour: the API itself is exercised against the sandbox.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from leadtui.api.client import LeadClient

KEY = "sk_live_0123456789abcdefSECRET"

Reply = httpx.Response | Exception


def error_body(code: str, request_id: str = "req_1") -> dict[str, object]:
    return {"error": {"code": code, "message": f"{code} happened", "request_id": request_id}}


@dataclass
class Script:
    """Answers requests in order from `replies`, repeating the last; records every request."""

    replies: list[Reply]
    requests: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply

    @property
    def attempts(self) -> int:
        return len(self.requests)

    def header_values(self, name: str) -> list[str | None]:
        return [r.headers.get(name) for r in self.requests]


@dataclass
class Sleeps:
    """An injected sleep that records instead of waiting."""

    calls: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def scripted_client(
    script: Callable[[httpx.Request], httpx.Response], sleeps: Sleeps, **kwargs: object
) -> LeadClient:
    return LeadClient(
        "https://api.example.com",
        KEY,
        transport=httpx.MockTransport(script),
        sleep=sleeps,
        **kwargs,  # type: ignore[arg-type]
    )
