"""Typed errors. Callers branch on `ApiError.code`, never on `message`.

No error here ever holds the API key: messages are built from server bodies and our own words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from leadtui.api.contract import REQUEST_ID_HEADER, ErrorCode


class LeadError(Exception):
    """Base of every error the client raises."""

    title: ClassVar[str] = "Error"

    def __init__(self, message: str, *, idempotency_key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        # The key used by a credit-consuming call, so the caller can journal and resend it.
        self.idempotency_key = idempotency_key
        # What the transport's earlier attempts of the same request ended with, oldest first
        # (empty when this was the only attempt).
        self.earlier_attempts: tuple[LeadError, ...] = ()


class ConfigurationError(LeadError):
    """The client cannot be built as asked (missing key, plain-HTTP remote URL, ...)."""

    title = "Configuration"


class TransportError(LeadError):
    """The request did not get an HTTP answer."""

    title = "Network"


class ConnectionFailed(TransportError):
    title = "Cannot connect"


class RequestTimeout(TransportError):
    title = "Timed out"


class ApiError(LeadError):
    """The server answered with an error status."""

    status: int
    title = "Server error"

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: str | None = None,
        *,
        retry_after: float | None = None,
        idempotency_key: str | None = None,
    ) -> None:
        super().__init__(message, idempotency_key=idempotency_key)
        self.status = status
        self.code = code
        self.request_id = request_id
        self.retry_after = retry_after

    def __str__(self) -> str:
        rid = f", request_id={self.request_id}" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{rid}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, "
            f"request_id={self.request_id!r})"
        )


class InvalidRequest(ApiError):
    title = "Invalid request"


class Unauthorized(ApiError):
    title = "Key rejected"


class Forbidden(ApiError):
    title = "Access denied"


class NotFound(ApiError):
    title = "Not found"


class Conflict(ApiError):
    title = "Conflict"


class RateLimited(ApiError):
    title = "Rate limited"


class ServerError(ApiError):
    title = "Server error"


_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    429: RateLimited,
}

_MAX_MESSAGE_CHARS = 500


def error_class(status: int) -> type[ApiError]:
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, ApiError)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a `Retry-After` header; HTTP dates are not used by this API."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _error_fields(body: bytes) -> tuple[str, str, str] | None:
    try:
        doc: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    err = doc.get("error") if isinstance(doc, dict) else None
    if not isinstance(err, dict):
        return None
    code, message, request_id = err.get("code"), err.get("message"), err.get("request_id")
    if not (isinstance(code, str) and isinstance(message, str) and isinstance(request_id, str)):
        return None
    return code, message[:_MAX_MESSAGE_CHARS], request_id


def error_from_response(
    status: int,
    body: bytes,
    headers: Mapping[str, str],
    *,
    idempotency_key: str | None = None,
) -> ApiError:
    """Turn an error response into a typed error; a body that is not the documented
    error object (proxy HTML, truncated JSON, wrong types) becomes `bad_response`."""
    cls = error_class(status)
    retry_after = parse_retry_after(headers.get("retry-after"))
    fields = _error_fields(body)
    if fields is None:
        return cls(
            status,
            ErrorCode.BAD_RESPONSE,
            f"The server answered {status} with a body that is not an API error object.",
            headers.get(REQUEST_ID_HEADER.lower()) or headers.get(REQUEST_ID_HEADER),
            retry_after=retry_after,
            idempotency_key=idempotency_key,
        )
    code, message, request_id = fields
    return cls(
        status,
        code,
        message,
        request_id,
        retry_after=retry_after,
        idempotency_key=idempotency_key,
    )


def bad_response(
    status: int, detail: str, request_id: str | None = None, *, idempotency_key: str | None = None
) -> ApiError:
    """A success status whose body does not match what the operation returns."""
    return error_class(status)(
        status,
        ErrorCode.BAD_RESPONSE,
        f"The server's answer could not be read: {detail[:_MAX_MESSAGE_CHARS]}",
        request_id,
        idempotency_key=idempotency_key,
    )
