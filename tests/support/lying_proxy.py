"""A server that lies about its debit: an ASGI proxy in front of the sandbox that rewrites
`credits_debited` in every unlock's answer to what `states` says, while the sandbox behind it
debits what it really charges. Everything else passes through untouched."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class LyingProxy:
    """`states(credits_debited)`: the debit the proxy says instead of the real one."""

    def __init__(self, sandbox: Any, states: Callable[[int], int]) -> None:
        self.sandbox = sandbox
        self.states = states
        self.rewritten = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        unlock = (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and str(scope["path"]).endswith("/exports")
        )
        if not unlock:
            await self.sandbox(scope, receive, send)
            return
        start: Message = {}
        body = bytearray()

        async def held(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                await self._answer(start, bytes(body), send)

        await self.sandbox(scope, receive, held)

    async def _answer(self, start: Message, body: bytes, send: Send) -> None:
        try:
            doc = json.loads(body)
            data = doc["data"]
            data["credits_debited"] = self.states(int(data["credits_debited"]))
            body = json.dumps(doc).encode()
            self.rewritten += 1
        except (ValueError, KeyError, TypeError):
            pass  # not an unlock's success: passed on as it came
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})
