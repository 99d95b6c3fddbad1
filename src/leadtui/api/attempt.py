"""One attempt of a request, and what its answer amounts to: a usable response (a JSON body
read whole within its size cap, or a stream left to the caller at a minimum pace) or the typed
error it is (a timeout, a broken or unreachable connection, an answer that is not HTTP, an
undecodable or oversized body, the server's own error object). Retrying is the transport's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

import httpx

from leadtui.api.bodies import (
    PacedStream,
    UndecodableBody,
    async_stream,
    content_coding,
    read_capped,
    with_body,
)
from leadtui.api.contract import REQUEST_ID_HEADER
from leadtui.api.deadlines import MIN_STREAM_BYTES_PER_WINDOW
from leadtui.api.errors import (
    ApiError,
    ConnectionFailed,
    LeadError,
    MalformedResponse,
    RequestTimeout,
    TransportError,
    bad_response,
    error_from_response,
)

log = logging.getLogger("leadtui.api")

# The largest JSON answer is a page of at most 100 records (~35 KB from the sandbox); 8 MiB
# is ample headroom, yet bounds what a broken or hostile server can make us hold and parse.
MAX_JSON_BYTES: Final = 8 * 1024 * 1024
# An error object is a few hundred bytes; past this the body is not one (a proxy's page).
MAX_ERROR_BYTES: Final = 64 * 1024


def request_id_of(response: httpx.Response) -> str | None:
    value: str | None = response.headers.get(REQUEST_ID_HEADER)
    return value


async def attempt(
    http: httpx.AsyncClient,
    request: httpx.Request,
    idempotency_key: str | None,
    *,
    stream: bool,
    within: float,
    pace_window: float,
) -> tuple[LeadError | None, httpx.Response | None]:
    """One try, given `within` seconds: a usable response, or the error it amounts to
    (nothing raised here). A JSON body is read whole, up to MAX_JSON_BYTES; a streamed one
    is left to the caller, which must receive at least a floor of bytes per `pace_window`."""
    where = f"{request.method} {request.url.path}"
    response: httpx.Response | None = None
    try:
        # Bounds the whole attempt, whatever pace the bytes arrive at.
        async with asyncio.timeout(within):
            response = await http.send(request, stream=True)
            if response.is_success and stream:
                refused = _encoded_stream(response, idempotency_key)
                if refused is not None:
                    await response.aclose()
                    return refused, None
                response.stream = PacedStream(
                    async_stream(response),
                    window=pace_window,
                    floor=MIN_STREAM_BYTES_PER_WINDOW,
                )
                rid = request_id_of(response)
                log.debug("%s -> %d request_id=%s (streaming)", where, response.status_code, rid)
                return None, response
            limit = MAX_JSON_BYTES if response.is_success else MAX_ERROR_BYTES
            undecodable: str | None = None
            try:
                body = await read_capped(response, limit)
            except UndecodableBody as exc:
                undecodable, body = str(exc), b""
    except (TimeoutError, httpx.TimeoutException) as exc:
        log.debug("%s -> timeout", where)
        late = RequestTimeout(
            f"The server did not answer {where} in time.", idempotency_key=idempotency_key
        )
        late.unsent = isinstance(exc, httpx.ConnectTimeout)
        return await _cut_off(response, late, f"The answer to {where} stopped arriving."), None
    except httpx.TransportError as exc:
        why = type(exc).__name__
        log.debug("%s -> %s", where, why)
        if response is None and isinstance(exc, httpx.ProtocolError):
            # Reached, but the status line or headers were not HTTP: not "unreachable".
            return MalformedResponse(
                f"The server was reached, but its answer to {where} was not valid HTTP ({why}).",
                idempotency_key=idempotency_key,
            ), None
        failed = ConnectionFailed(
            f"Could not reach the server for {where} ({why}).", idempotency_key=idempotency_key
        )
        failed.unsent = isinstance(exc, httpx.ConnectError)
        broke = f"The connection broke while reading {where} ({why})."
        return await _cut_off(response, failed, broke), None
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
                else f"the body is larger than {MAX_JSON_BYTES // (1024 * 1024)} MiB"
            )
            log.debug("%s -> %d %s", where, response.status_code, problem)
            return bad_response(
                response.status_code,
                problem,
                request_id_of(response),
                idempotency_key=idempotency_key,
            ), None
        log.debug("%s -> %d request_id=%s", where, response.status_code, request_id_of(response))
        return None, with_body(response, body)
    # An oversized error body is no error object: it is judged by its status alone.
    error = error_from_response(
        response.status_code, body or b"", response.headers, idempotency_key=idempotency_key
    )
    log.debug("%s -> %d request_id=%s code=%s", where, error.status, error.request_id, error.code)
    return error, None


async def _cut_off(
    response: httpx.Response | None, unanswered: TransportError, broken: str
) -> TransportError:
    """`unanswered` when the try was cut off before any answer; while the answer was arriving,
    the same kind of error saying `broken` (and the answer is closed)."""
    if response is None:
        return unanswered
    await response.aclose()
    return type(unanswered)(broken, idempotency_key=unanswered.idempotency_key)


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
        request_id_of(response),
        idempotency_key=idempotency_key,
    )
