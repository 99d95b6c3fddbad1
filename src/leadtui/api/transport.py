"""HTTP transport: Bearer auth, timeouts, retries with backoff, typed errors.

The one place that talks to httpx. Every failure leaves here as a LeadError. httpx's read
timeout is per read, so a server dripping a byte a second never trips it: each request also
has one overall deadline for connecting and answering, shared by its retries, JSON bodies
have a size cap, and streamed bodies a minimum pace.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, Final

import httpx
from pydantic import SecretStr

from leadtui.api.bodies import (
    ACCEPT_ENCODING,
    PacedStream,
    UndecodableBody,
    async_stream,
    content_coding,
    read_capped,
    with_body,
)
from leadtui.api.contract import (
    API_PREFIX,
    GATEWAY_STATUSES,
    IDEMPOTENCY_HEADER,
    REQUEST_ID_HEADER,
)
from leadtui.api.deadlines import DEADLINE_PER_TIMEOUT, MIN_STREAM_BYTES_PER_WINDOW
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    ConnectionFailed,
    LeadError,
    MalformedResponse,
    RequestTimeout,
    bad_response,
    error_from_response,
    parse_retry_after,
)
from leadtui.api.exchange import Exchange, ExchangeObserver, failure_outcome
from leadtui.api.keys import unprintable_position
from leadtui.api.retry_policy import RetryPolicy

log = logging.getLogger("leadtui.api")

Sleep = Callable[[float], Awaitable[None]]

RETRY_STATUSES: Final = GATEWAY_STATUSES | {429}
# The largest JSON answer is a page of at most 100 records (~35 KB from the sandbox); 8 MiB
# is ample headroom, yet bounds what a broken or hostile server can make us hold and parse.
MAX_JSON_BYTES: Final = 8 * 1024 * 1024
# An error object is a few hundred bytes; past this the body is not one (a proxy's page).
MAX_ERROR_BYTES: Final = 64 * 1024
# Methods that may be replayed without a key: reading twice changes nothing.
_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def _request_id(response: httpx.Response) -> str | None:
    value: str | None = response.headers.get(REQUEST_ID_HEADER)
    return value


class Transport:
    """Sends requests under `{base_url}/api/v1` and turns failures into typed errors."""

    def __init__(
        self,
        base_url: str,
        api_key: SecretStr,
        *,
        timeout: float,
        policy: RetryPolicy,
        user_agent: str,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
        deadline: float | None = None,
        max_json_bytes: int = MAX_JSON_BYTES,
        on_exchange: ExchangeObserver | None = None,
    ) -> None:
        self.on_exchange = on_exchange
        """Told of every attempt, failed or not (see `Exchange`)."""
        self._api_key = api_key
        self._policy = policy
        self._deadline = deadline if deadline is not None else DEADLINE_PER_TIMEOUT * timeout
        self._max_json_bytes = max_json_bytes
        self._sleep: Sleep = sleep or asyncio.sleep
        self._http = httpx.AsyncClient(
            base_url=base_url + API_PREFIX,
            timeout=httpx.Timeout(timeout),
            headers={
                "User-Agent": user_agent,
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

    @property
    def deadline(self) -> float:
        """Seconds one request's attempts may take in all (connect and answer); also the pace
        window of streamed bodies."""
        return self._deadline

    async def aclose(self) -> None:
        await self._http.aclose()

    def _headers(self, *, auth: bool, idempotency_key: str | None, stream: bool) -> dict[str, str]:
        headers: dict[str, str] = {}
        if auth:
            # The only place the secret is unwrapped.
            headers["Authorization"] = f"Bearer {self._api_key.get_secret_value()}"
        if idempotency_key is not None:
            headers[IDEMPOTENCY_HEADER] = idempotency_key
        if stream:
            # Archives are compressed already; an encoded one could inflate without bound.
            headers["Accept-Encoding"] = "identity"
        return headers

    def _build(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None,
        json: Any,
        headers: dict[str, str],
        content: bytes | None = None,
    ) -> httpx.Request:
        """The request, or ConfigurationError when a value cannot go into it.

        Header values are checked here: httpx's UnicodeEncodeError (or h11's complaint about a
        control character) would hold the whole value, the key included. Our error is raised
        after any handler, so nothing is in its `__cause__` or `__context__`.
        """
        bad_header = next(
            (name for name, value in headers.items() if unprintable_position(value) is not None),
            None,
        )
        if bad_header is None:
            try:
                if content is not None:
                    headers = {**headers, "Content-Type": "application/json"}
                    return self._http.build_request(
                        method, path, params=params, content=content, headers=headers
                    )
                return self._http.build_request(
                    method, path, params=params, json=json, headers=headers
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
        auth: bool = True,
    ) -> httpx.Response:
        """Send with retries; return a 2xx response with its body read, or raise. `content`
        is a JSON body already encoded, sent as these exact bytes on every attempt."""
        async with self._send(
            method,
            path,
            params=params,
            json=json,
            content=content,
            idempotency_key=idempotency_key,
            auth=auth,
            stream=False,
        ) as response:
            return response

    @asynccontextmanager
    async def stream(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        idempotency_key: str | None = None,
    ) -> AsyncIterator[httpx.Response]:
        """Like `request`, but the 2xx body is left unread for the caller to stream."""
        async with self._send(
            method, path, json=json, idempotency_key=idempotency_key, auth=True, stream=True
        ) as response:
            yield response

    @asynccontextmanager
    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        idempotency_key: str | None,
        auth: bool,
        stream: bool,
    ) -> AsyncIterator[httpx.Response]:
        # A write is replayed only when the server can recognise the replay by its key.
        retryable = method in _SAFE_METHODS or idempotency_key is not None
        request = self._build(
            method,
            path,
            params=params,
            json=json,
            content=content,
            headers=self._headers(auth=auth, idempotency_key=idempotency_key, stream=stream),
        )
        retry_number = 0
        earlier: list[LeadError] = []
        # One deadline for connecting and answering, shared by every attempt: a server that
        # answers slowly cannot multiply it by the number of retries. (The waits between
        # attempts are the retry policy's, bounded there.)
        now = asyncio.get_running_loop().time
        left = self._deadline
        while True:
            started = time.perf_counter()
            attempt_began = now()
            failure, response = await self._attempt(
                request, idempotency_key, stream=stream, within=left
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
                raise failure
            earlier.append(failure)
            retry_number += 1
            log.debug(
                "retrying %s %s in %.2fs (retry %d of %d)",
                method,
                request.url.path,
                delay,
                retry_number,
                self._policy.max_retries,
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
            status, request_id, outcome = response.status_code, _request_id(response), "ok"
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

    async def _attempt(
        self, request: httpx.Request, idempotency_key: str | None, *, stream: bool, within: float
    ) -> tuple[LeadError | None, httpx.Response | None]:
        """One try, given `within` seconds: a usable response, or the error it amounts to
        (nothing raised here)."""
        method, path = request.method, request.url.path
        response: httpx.Response | None = None
        try:
            # Bounds the whole attempt, whatever pace the bytes arrive at.
            async with asyncio.timeout(within):
                response = await self._http.send(request, stream=True)
                if response.is_success and stream:
                    refused = _encoded_stream(response, idempotency_key)
                    if refused is not None:
                        await response.aclose()
                        return refused, None
                    response.stream = PacedStream(
                        async_stream(response),
                        window=self._deadline,
                        floor=MIN_STREAM_BYTES_PER_WINDOW,
                    )
                    log.debug(
                        "%s %s -> %d request_id=%s (streaming)",
                        method,
                        path,
                        response.status_code,
                        _request_id(response),
                    )
                    return None, response
                limit = self._max_json_bytes if response.is_success else MAX_ERROR_BYTES
                undecodable: str | None = None
                try:
                    body = await read_capped(response, limit)
                except UndecodableBody as exc:
                    undecodable, body = str(exc), b""
        except (TimeoutError, httpx.TimeoutException):
            log.debug("%s %s -> timeout", method, path)
            if response is None:
                return RequestTimeout(
                    f"The server did not answer {method} {path} in time.",
                    idempotency_key=idempotency_key,
                ), None
            await response.aclose()
            return RequestTimeout(
                f"The answer to {method} {path} stopped arriving.",
                idempotency_key=idempotency_key,
            ), None
        except httpx.TransportError as exc:
            log.debug("%s %s -> %s", method, path, type(exc).__name__)
            if response is None and isinstance(exc, httpx.ProtocolError):
                # Reached, but the status line or headers were not HTTP: not "unreachable".
                return MalformedResponse(
                    f"The server was reached, but its answer to {method} {path} was not "
                    f"valid HTTP ({type(exc).__name__}).",
                    idempotency_key=idempotency_key,
                ), None
            if response is None:
                return ConnectionFailed(
                    f"Could not reach the server for {method} {path} ({type(exc).__name__}).",
                    idempotency_key=idempotency_key,
                ), None
            await response.aclose()
            return ConnectionFailed(
                f"The connection broke while reading {method} {path} ({type(exc).__name__}).",
                idempotency_key=idempotency_key,
            ), None
        except BaseException:
            if response is not None:
                await response.aclose()
            raise
        await response.aclose()
        if response.is_success:
            if undecodable is not None or body is None:
                problem = (
                    f"the body cannot be decoded: {undecodable}"
                    if undecodable is not None
                    else f"the body is larger than {self._max_json_bytes // (1024 * 1024)} MiB"
                )
                log.debug("%s %s -> %d %s", method, path, response.status_code, problem)
                return bad_response(
                    response.status_code,
                    problem,
                    _request_id(response),
                    idempotency_key=idempotency_key,
                ), None
            log.debug(
                "%s %s -> %d request_id=%s",
                method,
                path,
                response.status_code,
                _request_id(response),
            )
            return None, with_body(response, body)
        # An oversized error body is no error object: it is judged by its status alone.
        error = error_from_response(
            response.status_code, body or b"", response.headers, idempotency_key=idempotency_key
        )
        log.debug(
            "%s %s -> %d request_id=%s code=%s",
            method,
            path,
            error.status,
            error.request_id,
            error.code,
        )
        return error, None

    def _retry_delay(
        self, failure: LeadError, retry_number: int, *, retryable: bool
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up and raise."""
        if not retryable or retry_number >= self._policy.max_retries:
            return None
        if isinstance(failure, ApiError):
            if failure.status not in RETRY_STATUSES:
                return None
            if failure.retry_after is not None:
                if failure.retry_after > self._policy.max_retry_after:
                    return None
                return failure.retry_after
        return self._policy.backoff(retry_number)


def _encoded_stream(response: httpx.Response, idempotency_key: str | None) -> ApiError | None:
    """The error for a streamed answer that came encoded although `identity` was asked."""
    try:
        coding = content_coding(response.headers)
    except UndecodableBody as exc:
        detail = str(exc)
    else:
        if coding is None:
            return None
        detail = f"it is {coding}-encoded although it was asked for unencoded"
    return bad_response(
        response.status_code,
        f"the archive was refused: {detail}",
        _request_id(response),
        idempotency_key=idempotency_key,
    )


def poll_hint(response: httpx.Response) -> float | None:
    """The `Retry-After` a successful answer carried: when to look again."""
    return parse_retry_after(response.headers.get("Retry-After"))


def request_id_of(response: httpx.Response) -> str | None:
    return _request_id(response)
