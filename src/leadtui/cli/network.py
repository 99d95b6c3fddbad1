"""The command line's way to the server: httpx's sync client, each blocking call in a thread.

The API client is async: it serves the TUI's event loop too. Under asyncio, httpx's async
transport is httpcore's async pool, whose locks and sockets need anyio's asyncio backend, and
importing that takes ~17 ms, more than `leadtui account --json` spends on its request. A
command sends a few requests, so here httpx's sync client sends them, each blocking call in a
daemon thread that the event loop awaits. The client above is unchanged: its deadlines and
stream paces still cancel a wait (the thread is left to finish on its own, and a daemon thread
never holds the process open), and timeouts, TLS verification and proxies are httpx's own,
chosen as the client chooses them when it is given no transport.

Measured side by side (bench/bench_cli_startup.py, medians of 15): with httpx's own async
transport instead, `leadtui account --json` took 1.45x the time and 1.19x the CPU.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

import httpx

T = TypeVar("T")
A = TypeVar("A")


async def _in_thread(call: Callable[[], T], abandon: Callable[[T], None] | None = None) -> T:
    """`call()` in a daemon thread; `abandon` gets its result if nobody waits for it any more."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T) -> None:
        if not done.cancelled():
            done.set_result(result)
        elif abandon is not None:
            abandon(result)

    def fail(error: BaseException) -> None:
        if not done.cancelled():
            done.set_exception(error)

    def work() -> None:
        try:
            result = call()
        except BaseException as exc:  # raised in the awaiting task instead
            _soon(loop, fail, exc)
            return
        if not _soon(loop, settle, result) and abandon is not None:
            abandon(result)

    threading.Thread(target=work, name="leadtui-http", daemon=True).start()
    return await done


def _soon(loop: asyncio.AbstractEventLoop, function: Callable[[A], None], argument: A) -> bool:
    """Run `function(argument)` in the loop's thread; False when the loop is closed (the
    command is over)."""
    try:
        loop.call_soon_threadsafe(function, argument)
    except RuntimeError:
        return False
    return True


class _Body(httpx.AsyncByteStream):
    """A response body read by the sync client, one chunk per thread call."""

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self._chunks: Iterator[bytes] = response.iter_raw()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            chunk = await _in_thread(lambda: next(self._chunks, None))
            if chunk is None:
                return
            yield chunk

    async def aclose(self) -> None:
        self._response.close()


class ThreadedTransport(httpx.AsyncBaseTransport):
    """An async transport over httpx's sync client: for the client's `transport=`."""

    def __init__(self) -> None:
        self._client: httpx.Client | None = None

    def _sync_client(self, url: httpx.URL) -> httpx.Client:
        if self._client is None:
            if url.scheme == "http":
                # What the client uses for http:// (loopback only): no CA bundle, no proxy.
                plain = httpx.HTTPTransport(verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
                self._client = httpx.Client(transport=plain)
            else:
                self._client = httpx.Client()  # httpx's defaults, proxies from the environment
        return self._client

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        client = self._sync_client(request.url)
        await request.aread()  # the body as bytes, which the sync client can send
        sent = await _in_thread(
            lambda: client.send(request, stream=True, follow_redirects=False),
            abandon=httpx.Response.close,
        )
        return httpx.Response(
            status_code=sent.status_code,
            headers=sent.headers,
            stream=_Body(sent),
            extensions=sent.extensions,
        )

    async def aclose(self) -> None:
        if self._client is not None:
            self._client.close()
