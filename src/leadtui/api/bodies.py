"""Response bodies under bounds: a size cap, a minimum pace, one content coding undone in steps.

httpx inflates each network chunk in one call: `gzip, gzip, gzip` turns 264 bytes into 2 GB
before any cap can look. Here a body has one coding at most, and inflating yields at most
`STEP` bytes at a time, so a size cap stops a bomb after `cap + STEP` bytes.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import aclosing
from typing import Final

import httpx

# The codings we can undo, and what we tell servers we accept.
ACCEPT_ENCODING: Final = "gzip, deflate"
_GZIP_CODINGS: Final = frozenset({"gzip", "x-gzip"})
_DEFLATE: Final = "deflate"
# The most decoded bytes one step may produce.
STEP: Final = 64 * 1024


class UndecodableBody(Exception):
    """The body's encoding is stacked, unknown or corrupt; `str()` says which, for the user."""


def content_coding(headers: httpx.Headers) -> str | None:
    """The body's one content coding (`gzip` or `deflate`), or None when it is not encoded.

    Raises UndecodableBody for more than one coding, or one we did not offer.
    """
    codings = [
        value.strip().lower()
        for value in headers.get_list("content-encoding", split_commas=True)
        if value.strip().lower() not in ("", "identity")
    ]
    if not codings:
        return None
    if len(codings) > 1:
        raise UndecodableBody(f"it is encoded {len(codings)} times; one encoding at most is read")
    coding = codings[0]
    if coding in _GZIP_CODINGS:
        return "gzip"
    if coding == _DEFLATE:
        return _DEFLATE
    raise UndecodableBody(f"its encoding {coding[:40]!r} was not asked for")


class _Inflater:
    """zlib in bounded steps: gzip (one member after another) or deflate (the zlib format)."""

    def __init__(self, coding: str) -> None:
        self._gzip = coding == "gzip"
        self._wbits = 16 + zlib.MAX_WBITS if self._gzip else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(self._wbits)
        self._fed = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decoded bytes for `data`, lazily, in pieces of at most STEP bytes."""
        self._fed = self._fed or bool(data)
        pending = data
        while True:
            try:
                piece = self._zlib.decompress(pending, STEP)
            except zlib.error:
                raise UndecodableBody("its compressed bytes are corrupt") from None
            if piece:
                yield piece
            pending = self._zlib.unconsumed_tail
            if self._zlib.eof and self._zlib.unused_data:
                if not self._gzip:
                    raise UndecodableBody("it has bytes after the end of its deflate stream")
                pending = self._zlib.unused_data
                self._zlib = zlib.decompressobj(self._wbits)  # the next gzip member
                continue
            # A full step may leave output inside zlib even when no input is left.
            if not pending and len(piece) < STEP:
                return

    def check_complete(self) -> None:
        """Raise if the body stopped inside a compressed stream (an empty body is empty)."""
        if self._fed and not self._zlib.eof:
            raise UndecodableBody("its compressed bytes end early")


async def decoded(raw: AsyncIterator[bytes], coding: str | None) -> AsyncGenerator[bytes]:
    """The bytes of `raw` with `coding` undone, in pieces of at most STEP decoded bytes."""
    if coding is None:
        async for chunk in raw:
            yield chunk
        return
    inflater = _Inflater(coding)
    async for chunk in raw:
        for piece in inflater.feed(chunk):
            yield piece
    inflater.check_complete()


class PacedStream(httpx.AsyncByteStream):
    """A body that must bring `floor` bytes within every `window` seconds (or end)."""

    def __init__(self, inner: httpx.AsyncByteStream, *, window: float, floor: int) -> None:
        self._inner = inner
        self._window = window
        self._floor = floor

    async def __aiter__(self) -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        due = loop.time() + self._window
        got = 0
        chunks = aiter(self._inner)
        while True:
            try:
                async with asyncio.timeout_at(due):
                    chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise httpx.ReadTimeout(
                    f"fewer than {self._floor} bytes arrived in {self._window:g} s"
                ) from None
            got += len(chunk)
            if got >= self._floor:
                got, due = 0, loop.time() + self._window
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def async_stream(response: httpx.Response) -> httpx.AsyncByteStream:
    stream = response.stream
    if not isinstance(stream, httpx.AsyncByteStream):
        raise TypeError("an async client always gets an async body stream")
    return stream


async def raw_chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    """The body as it came over the wire, chunk by chunk.

    An answer built in memory (a swapped-in transport's) was read, and decoded, by httpx
    when it was made: it is yielded whole, its encoding already undone.
    """
    if response.is_stream_consumed:
        yield response.content
        return
    async for chunk in response.aiter_raw():
        yield chunk


async def read_capped(response: httpx.Response, limit: int) -> bytes | None:
    """The decoded body, or None as soon as it proves longer than `limit` bytes.

    Raises UndecodableBody for an encoding we cannot (or will not) undo.
    """
    declared = response.headers.get("Content-Length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return None
    # An answer built in memory comes decoded already (see raw_chunks).
    coding = None if response.is_stream_consumed else content_coding(response.headers)
    chunks: list[bytes] = []
    size = 0
    # Decoded bytes are counted as they are inflated, so a gzip bomb stops at the cap.
    async with aclosing(decoded(raw_chunks(response), coding)) as pieces:
        async for piece in pieces:
            size += len(piece)
            if size > limit:
                return None
            chunks.append(piece)
    return b"".join(chunks)


def with_body(response: httpx.Response, body: bytes) -> httpx.Response:
    """The same answer with its body in memory (already decoded, so without the encoding)."""
    dropped = {"content-encoding", "content-length", "transfer-encoding"}
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in dropped]
    return httpx.Response(
        response.status_code, headers=headers, content=body, request=response.request
    )
