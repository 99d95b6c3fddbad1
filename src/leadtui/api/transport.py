"""HTTP transport: Bearer auth, timeouts, retries with backoff, typed errors.

With `attempt.py` (one try, and what its answer amounts to), the one place that talks to
httpx: this module builds each request and retries it. Every failure leaves as a LeadError.
httpx's read timeout is per read, so a server dripping a byte a second never trips it: each
request also has one overall deadline for connecting and answering, shared by its retries,
JSON bodies have a size cap, and streamed bodies a minimum pace.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, Final

import httpx
from pydantic import SecretStr

from leadtui import __version__
from leadtui.api.attempt import attempt, request_id_of
from leadtui.api.bodies import ACCEPT_ENCODING
from leadtui.api.contract import API_PREFIX, GATEWAY_STATUSES, IDEMPOTENCY_HEADER
from leadtui.api.deadlines import DEADLINE_PER_TIMEOUT
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    LeadError,
    mark_lost_answer,
    parse_retry_after,
)
from leadtui.api.exchange import Exchange, ExchangeObserver, failure_outcome
from leadtui.api.keys import unprintable_position

log = logging.getLogger("leadtui.api")

Sleep = Callable[[float], Awaitable[None]]

RETRY_STATUSES: Final = GATEWAY_STATUSES | {429}
# Full jitter: the n-th retry waits a uniform draw in [0, min(CAP, BASE * 2^n)] seconds.
BACKOFF_BASE: Final = 0.5
BACKOFF_CAP: Final = 8.0
# A longer Retry-After is raised to the caller (with `.retry_after`) rather than slept.
MAX_RETRY_AFTER: Final = 60.0
# Methods that may be replayed without a key: reading twice changes nothing.
_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def _may_have_acted(failure: LeadError) -> bool:
    """No answer that says nothing was done: a broken connection, a timeout, a 5xx (a refused
    connection and a 4xx other than 408 say the request was not acted on)."""
    if isinstance(failure, ApiError):
        return failure.status >= 500 or failure.status == 408
    return not failure.unsent


def backoff(retry_number: int) -> float:
    return random.uniform(0.0, min(BACKOFF_CAP, BACKOFF_BASE * (2**retry_number)))


class Transport:
    """Sends requests under `{base_url}/api/v1` and turns failures into typed errors."""

    def __init__(
        self,
        base_url: str,
        api_key: SecretStr,
        *,
        timeout: float,
        max_retries: int,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.on_exchange: ExchangeObserver | None = None
        """Told of every attempt, failed or not (see `Exchange`)."""
        self._api_key = api_key
        self._max_retries = max_retries
        # One request's attempts may take this long in all (connect and answer); it is also
        # the pace window of streamed bodies.
        self._deadline = DEADLINE_PER_TIMEOUT * timeout
        self._sleep: Sleep = sleep or asyncio.sleep
        self._http = httpx.AsyncClient(
            base_url=base_url + API_PREFIX,
            timeout=httpx.Timeout(timeout),
            headers={
                "User-Agent": f"leadtui/{__version__}",
                "Accept": "application/json",
                "Accept-Encoding": ACCEPT_ENCODING,
            },
            transport=transport,
            follow_redirects=False,
        )
        # Exchanges name paths as the spec does, without the base URL's path and prefix.
        self._prefix = self._http.base_url.path.rstrip("/")

    def __repr__(self) -> str:
        return f"Transport(base_url={str(self._http.base_url)!r})"

    async def aclose(self) -> None:
        await self._http.aclose()

    def _build(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        idempotency_key: str | None = None,
        stream: bool = False,
    ) -> httpx.Request:
        """The request, or ConfigurationError when a value cannot go into it.

        Header values are checked here: httpx's UnicodeEncodeError (or h11's complaint about a
        control character) would hold the whole value, the key included. Our error is raised
        after any handler, so nothing is in its `__cause__` or `__context__`.
        """
        # The only place the secret is unwrapped.
        headers = {"Authorization": f"Bearer {self._api_key.get_secret_value()}"}
        if idempotency_key is not None:
            headers[IDEMPOTENCY_HEADER] = idempotency_key
        if stream:
            # Archives are compressed already; an encoded one could inflate without bound.
            headers["Accept-Encoding"] = "identity"
        if content is not None:
            headers["Content-Type"] = "application/json"
        bad_header = next(
            (name for name, value in headers.items() if unprintable_position(value) is not None),
            None,
        )
        if bad_header is None:
            try:
                # `content`, when given, is the JSON body already encoded: httpx sends it as is.
                return self._http.build_request(
                    method, path, params=params, json=json, content=content, headers=headers
                )
            except UnicodeError:
                pass
        where = f"the {bad_header} header" if bad_header else "the address or a query parameter"
        raise ConfigurationError(f"{method} {path} was not sent: {where} cannot be encoded.")

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        """Send with retries; return a 2xx response with its body read, or raise. `content`
        is a JSON body already encoded, sent as these exact bytes on every attempt."""
        request = self._build(
            method, path, params=params, json=json, content=content, idempotency_key=idempotency_key
        )
        async with self._send(request, path, idempotency_key, stream=False) as response:
            return response

    @asynccontextmanager
    async def stream(
        self, method: str, path: str, *, json: Any = None
    ) -> AsyncIterator[httpx.Response]:
        """Like `request`, but the 2xx body is left unread for the caller to stream."""
        request = self._build(method, path, json=json, stream=True)
        async with self._send(request, path, None, stream=True) as response:
            yield response

    @asynccontextmanager
    async def _send(
        self, request: httpx.Request, path: str, idempotency_key: str | None, *, stream: bool
    ) -> AsyncIterator[httpx.Response]:
        method = request.method
        # A write is replayed only when the server can recognise the replay by its key.
        retryable = method in _SAFE_METHODS or idempotency_key is not None
        retry_number = 0
        earlier: list[LeadError] = []
        # One deadline for connecting and answering, shared by every attempt: a server that
        # answers slowly cannot multiply it by the number of retries. (The waits between
        # attempts are bounded by the backoff cap and MAX_RETRY_AFTER.)
        now = asyncio.get_running_loop().time
        left = self._deadline
        while True:
            started = time.perf_counter()
            attempt_began = now()
            failure, response = await attempt(
                self._http,
                request,
                idempotency_key,
                stream=stream,
                within=left,
                pace_window=self._deadline,
            )
            left -= now() - attempt_began
            self._report(request, idempotency_key, retry_number, started, failure, response)
            if response is not None:
                try:
                    yield response
                finally:
                    await response.aclose()
                return
            assert failure is not None
            delay = self._retry_delay(failure, retry_number, retryable=retryable)
            if left <= 0:
                delay = None  # no time left for another attempt
            if delay is None:
                # The spend core needs to know whether any earlier attempt may have been acted on.
                failure.earlier_attempts = tuple(earlier)
                if not retryable and _may_have_acted(failure):
                    mark_lost_answer(failure, method, path)
                raise failure
            earlier.append(failure)
            retry_number += 1
            log.debug(
                "retrying %s %s in %.2fs (retry %d of %d)",
                method,
                request.url.path,
                delay,
                retry_number,
                self._max_retries,
            )
            await self._sleep(delay)

    def _report(
        self,
        request: httpx.Request,
        idempotency_key: str | None,
        retry_number: int,
        started: float,
        failure: LeadError | None,
        response: httpx.Response | None,
    ) -> None:
        if self.on_exchange is None:
            return
        status: int | None
        if response is not None:
            status, request_id, outcome = response.status_code, request_id_of(response), "ok"
        else:
            assert failure is not None
            status, request_id, outcome = failure_outcome(failure)
        exchange = Exchange(
            method=request.method,
            path=request.url.path.removeprefix(self._prefix),
            status=status,
            seconds=time.perf_counter() - started,
            request_id=request_id,
            idempotency_key=idempotency_key,
            outcome=outcome,
            attempt=retry_number + 1,
        )
        try:
            self.on_exchange(exchange)
        except Exception:  # a record keeper's fault never fails the request it records
            log.debug("the exchange observer failed", exc_info=True)

    def _retry_delay(
        self, failure: LeadError, retry_number: int, *, retryable: bool
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up and raise."""
        if not retryable or retry_number >= self._max_retries:
            return None
        if isinstance(failure, ApiError):
            if failure.status not in RETRY_STATUSES:
                return None
            if failure.retry_after is not None:
                if failure.retry_after > MAX_RETRY_AFTER:
                    return None
                return failure.retry_after
        return backoff(retry_number)


def poll_hint(response: httpx.Response) -> float | None:
    """The `Retry-After` a successful answer carried: when to look again."""
    return parse_retry_after(response.headers.get("Retry-After"))
