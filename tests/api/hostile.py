"""A small hostile HTTP server on loopback: it answers each request with the raw bytes a test
scripts (broken headers, stacked encodings, endless cursors), and records what it was sent.

Real sockets and real httpx parsing: what the client meets here is what it would meet on the
network, not what a mock transport would hand it already parsed.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

KEY = "sk_live_hostile_0123456789abcdef"


@dataclass(frozen=True)
class Seen:
    """One request as the server read it."""

    method: str
    target: str
    headers: dict[str, str]

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    def query(self, name: str) -> str | None:
        values = parse_qs(urlsplit(self.target).query).get(name)
        return values[0] if values else None


Answer = Callable[[Seen], bytes]


def raw_response(
    status: int = 200,
    body: bytes = b"",
    headers: list[tuple[str, str]] | None = None,
    *,
    reason: str = "OK",
    length: bool = True,
) -> bytes:
    """Status line, headers (with Content-Length unless `length` is False) and body, as sent."""
    lines = [f"HTTP/1.1 {status} {reason}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers or []]
    if length:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def json_response(
    doc: Any, status: int = 200, headers: list[tuple[str, str]] | None = None
) -> bytes:
    return raw_response(
        status, json.dumps(doc).encode(), [("Content-Type", "application/json"), *(headers or [])]
    )


def gzip_of_zeros(size: int) -> bytes:
    """`size` zero bytes, gzip-compressed without ever holding them (about size / 1000)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [packer.compress(block) for _ in range(size // len(block))]
    parts.append(packer.flush())
    return b"".join(parts)


def gzip_times(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = gzip.compress(data, 9)
    return data


@dataclass
class HostileServer:
    """`async with HostileServer(answer) as base_url:` serves `answer(request)` per request."""

    answer: Answer
    seen: list[Seen] = field(default_factory=list)
    _server: asyncio.Server | None = None

    async def __aenter__(self) -> str:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    @property
    def requests(self) -> int:
        return len(self.seen)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, *header_lines = head.decode("latin-1").split("\r\n")
            method, target, _ = request_line.split(" ", 2)
            headers = {}
            for line in header_lines:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            await reader.readexactly(int(headers.get("content-length", "0")))
            seen = Seen(method, target, headers)
            self.seen.append(seen)
            writer.write(self.answer(seen))
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
