"""Transports around the in-process sandbox for what it cannot do on demand: lose the answer to
a spend after the server acted on it, or rewrite an answer as a meddling proxy would."""

from __future__ import annotations

import json

import httpx


class AnswerLost(httpx.AsyncBaseTransport):
    """Every POST whose path ends with `suffix` reaches the sandbox (which acts on it), then
    the connection breaks before the answer arrives: the client cannot know what happened."""

    def __init__(self, inner: httpx.AsyncBaseTransport, suffix: str) -> None:
        self.inner = inner
        self.suffix = suffix
        self.lost = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith(self.suffix):
            await response.aread()
            self.lost += 1
            raise httpx.RemoteProtocolError(
                "connection cut after the server acted", request=request
            )
        return response


class PriceDropped(httpx.AsyncBaseTransport):
    """A proxy that strips `price_per_result` from search records."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "GET" or "/searches/" not in request.url.path:
            return response
        doc = json.loads(await response.aread())
        doc.get("data", {}).pop("price_per_result", None)
        headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-length"]
        return httpx.Response(response.status_code, headers=headers, json=doc)


class CursorRepeated(httpx.AsyncBaseTransport):
    """A server that hands out its first `next_cursor` again on every page of `/searches`."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.pages = 0
        self.first_cursor: str | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "GET" or not request.url.path.endswith("/searches"):
            return response
        self.pages += 1
        doc = json.loads(await response.aread())
        self.first_cursor = self.first_cursor or doc["next_cursor"]
        doc["next_cursor"] = self.first_cursor
        return httpx.Response(response.status_code, json=doc)


class EmptyPageWithCursor(httpx.AsyncBaseTransport):
    """A server whose second page of `/searches` is empty yet names a next one."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.pages = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "GET" or not request.url.path.endswith("/searches"):
            return response
        self.pages += 1
        doc = json.loads(await response.aread())
        if self.pages == 2:
            doc = {"data": [], "next_cursor": "more-later"}
        return httpx.Response(response.status_code, json=doc)
