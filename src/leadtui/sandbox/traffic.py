"""The ASGI layer around /api/v1: request ids, the request log, latency and fault injection.

A fault strikes with probability `fault_rate`: half before handling (503, `Retry-After` 0 or
1, nothing done), half after the handler committed (a 502 replaces the answer, or the
connection is cut) — the case only idempotency keys make safe.

A handler that crashes answers 500 with the error body here, and the connection stays
usable: nothing reaches the server below as an unhandled exception.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableMapping
from typing import Any

import httpx
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadtui.api.contract import API_PREFIX, IDEMPOTENCY_HEADER, REQUEST_ID_HEADER, ErrorCode
from leadtui.sandbox import problems
from leadtui.sandbox.clock import iso
from leadtui.sandbox.state import RequestRecord, SandboxState

# The request log keeps a body's first bytes: enough to compare a spend's body with its journal.
_LOGGED_BODY_MAX = 65_536
_log = logging.getLogger(__name__)


class TrafficLayer:
    def __init__(self, app: ASGIApp, state: SandboxState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = problems.new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        send = _with_header(send, (REQUEST_ID_HEADER.lower().encode(), request_id.encode()))
        path: str = scope["path"]
        if not path.startswith(API_PREFIX):
            await self._guarded(scope, receive, send, request_id)
            return

        record = RequestRecord(
            time=iso(self.state.now()),
            method=scope["method"],
            path=path,
            status=None,
            idempotency_key=Headers(scope=scope).get(IDEMPOTENCY_HEADER),
            request_id=request_id,
        )
        chunks: list[bytes] = []

        async def recording_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
            return message

        try:
            await self._serve(scope, recording_receive, send, record)
        finally:
            body = b"".join(chunks)
            record.body = body[:_LOGGED_BODY_MAX].decode("utf-8", "replace") if body else None
            self.state.log(record)

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, record: RequestRecord
    ) -> None:
        config = self.state.config
        if config.latency_ms > 0:
            await asyncio.sleep(config.latency_ms / 1000)
        fault = self._draw_fault()
        if fault == "503":
            record.fault, record.status = "503", 503
            retry_after = "0" if self.state.fault_rng.random() < 0.5 else "1"
            await _send_error(send, 503, record.request_id, {"Retry-After": retry_after}, _INJECTED)
            return
        if fault is None:
            record.status = await self._guarded(scope, receive, send, record.request_id)
            return

        # After the handler: run it to completion (it commits), then spoil the answer.
        messages: list[Message] = []

        async def keep(message: Message) -> None:
            messages.append(message)

        await self._guarded(scope, receive, keep, record.request_id)
        record.fault = fault
        if fault == "502":
            record.status = 502
            await _send_error(send, 502, record.request_id, {}, _INJECTED)
            return
        await self._cut(send, messages)

    async def _guarded(
        self, scope: Scope, receive: Receive, send: Send, request_id: str
    ) -> int | None:
        """The app's answer status; a crash is answered as 500 `internal_error`, never raised."""
        status: int | None = None

        async def tracking_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            _log.exception("sandbox handler failed (request %s)", request_id)
            if status is not None:
                raise  # half an answer is out: only closing the connection tells the client
            await _send_error(send, 500, request_id, {}, "The sandbox failed unexpectedly.")
            return 500
        return status

    def _draw_fault(self) -> str | None:
        rate = self.state.config.fault_rate
        if rate <= 0:
            return None
        rng = self.state.fault_rng
        if rng.random() >= rate:
            return None
        if rng.random() < 0.5:
            return "503"
        return "502" if rng.random() < 0.5 else "cut"

    async def _cut(self, send: Send, messages: list[Message]) -> None:
        start = next((m for m in messages if m["type"] == "http.response.start"), None)
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
        if start is not None:
            await send(start)
            await send(
                {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
            )
        if self.state.served_over_socket:
            # Returning with the body incomplete makes uvicorn close the connection.
            return
        # In process (httpx.ASGITransport) the app's exception reaches the client as is.
        raise httpx.RemoteProtocolError("sandbox fault: connection cut after the handler ran")


def _with_header(send: Send, header: tuple[bytes, bytes]) -> Send:
    async def wrapped(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), header]
        await send(message)

    return wrapped


_INJECTED = "The sandbox injected a transient failure; retry the request."


async def _send_error(
    send: Send, status: int, request_id: str, headers: dict[str, str], message: str
) -> None:
    # The X-Request-Id header comes from the `send` it is given, as for every answer.
    response = problems.error_response(
        status, ErrorCode.INTERNAL_ERROR, message, request_id, headers
    )
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
