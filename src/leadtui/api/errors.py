"""Typed errors. Callers branch on `ApiError.code`, never on `message`.

No error here ever holds the API key: messages are built from server bodies and our own words.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

from leadtui.api.contract import REQUEST_ID_HEADER, ErrorCode
from leadtui.durable import NotARegularFile


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
        # The request never left this machine (the connection was refused): nothing was done.
        self.unsent = False
        # "POST /searches": the final failure of a write that is not idempotent (no
        # Idempotency-Key, so never retried) after which the server may have done it. Sending
        # it again may do it twice: a surface says how to check instead (`lost_answer`).
        self.lost_answer_to: str | None = None


class ConfigurationError(LeadError):
    """The client cannot be built as asked (missing key, plain-HTTP remote URL, ...)."""

    title = "Configuration"


class InvalidIdempotencyKey(ConfigurationError):
    """An Idempotency-Key that cannot be sent (see `keys.idempotency_key_problem`)."""

    title = "Invalid idempotency key"


class TransportError(LeadError):
    """The request did not get an HTTP answer."""

    title = "Network"


def mark_lost_answer(error: LeadError, method: str, path: str) -> None:
    """`error` ended a write that is not idempotent and the server may have done it: say so
    in its message (an error object's message is the server's own and stays as it is)."""
    error.lost_answer_to = f"{method} {path}"
    if isinstance(error, TransportError):
        error.message = (
            f"The answer to {method} {path} was lost: the request may have gone through, "
            "and it is not sent again by itself."
        )
        error.args = (error.message,)


def lost_answer(error: LeadError) -> str | None:
    """Which collection to look in after a lost answer to a write that is not idempotent:
    "searches" for `POST /searches` (None when the answer was not lost)."""
    if error.lost_answer_to is None:
        return None
    path = error.lost_answer_to.partition(" ")[2]
    return path.strip("/").split("/")[0] or None


class ConnectionFailed(TransportError):
    title = "Cannot connect"


class RequestTimeout(TransportError):
    title = "Timed out"


class MalformedResponse(TransportError):
    """The server was reached, but its answer was not valid HTTP: a broken status line or
    header, or the connection closed before any answer. Retried like a network failure."""

    title = "Malformed answer"


class DownloadNotSaved(LeadError):
    """The archive arrived (or was arriving) but could not be written where asked.

    `path` is the file asked for, `reason` what the system said ("read-only file system",
    "no space left on device", "permission denied", ...), `errno` its number when known.
    Nothing is left half-written: neither a partial file nor its temporary one.
    """

    title = "Not saved"

    def __init__(self, path: Path, reason: str, errno: int | None = None) -> None:
        super().__init__(f"Could not save {path}: {reason}. Nothing was left half-written.")
        self.path = path
        self.reason = reason
        self.errno = errno

    @classmethod
    def from_os_error(cls, path: Path, error: OSError) -> DownloadNotSaved:
        """The reason in the system's words for `error.errno`, lower-cased to fit a sentence."""
        if isinstance(error, NotARegularFile):
            return cls(path, str(error.strerror), error.errno)
        if error.errno is None:
            return cls(path, "the file system refused the write")
        words = os.strerror(error.errno)
        return cls(path, words[:1].lower() + words[1:], error.errno)


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


# Client-side code of `Redirected`; beside `ErrorCode.BAD_RESPONSE` in spirit.
REDIRECT_NOT_FOLLOWED: Final = "redirect_not_followed"
# A Location is shown to the user: cut it short and keep only printable characters.
_MAX_LOCATION_CHARS: Final = 200


class Redirected(ApiError):
    """A 3xx answer. Redirects are never followed (the key must not travel elsewhere);
    `location` is the target the server named, if any, made safe to show."""

    title = "Redirected"

    def __init__(
        self,
        status: int,
        location: str | None,
        request_id: str | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> None:
        target = f"redirect to {location}" if location else "redirect without a Location"
        super().__init__(
            status,
            REDIRECT_NOT_FOLLOWED,
            f"The server answered {status}: {target}, not followed.",
            request_id,
            idempotency_key=idempotency_key,
        )
        self.location = location


def _shown_location(value: str | None) -> str | None:
    if not value:
        return None
    printable = "".join(c if c.isprintable() else "?" for c in value[:_MAX_LOCATION_CHARS])
    return printable + ("…" if len(value) > _MAX_LOCATION_CHARS else "")


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


# Retry-After in seconds: digits, with an optional fraction (the RFC has whole seconds only).
_DELAY_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]+)?")
# A hint longer than a day is a broken or hostile server: waiting a day is as good as forever.
MAX_RETRY_AFTER_SECONDS: Final = 24 * 60 * 60.0


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a `Retry-After` header, at most a day; None when absent or unreadable.

    Only delay-seconds are read: `inf`, `nan`, `1e308`, negatives and anything else that is
    not plain digits count as absent. HTTP dates count as absent too: this API sends seconds,
    and a date would make the wait depend on the two clocks agreeing.
    """
    if value is None:
        return None
    text = value.strip()
    if _DELAY_SECONDS.fullmatch(text) is None:
        return None
    # Any run of digits is a valid delay; a huge one (even past float range) means "long".
    return min(float(text), MAX_RETRY_AFTER_SECONDS)


def _header_request_id(headers: Mapping[str, str]) -> str | None:
    return headers.get(REQUEST_ID_HEADER.lower()) or headers.get(REQUEST_ID_HEADER)


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
    error object (proxy HTML, truncated JSON, wrong types) becomes `bad_response`, and a 3xx
    becomes `Redirected` whatever its body says."""
    if 300 <= status < 400:
        return Redirected(
            status,
            _shown_location(headers.get("location")),
            _header_request_id(headers),
            idempotency_key=idempotency_key,
        )
    code, message, request_id = _error_fields(body) or (
        ErrorCode.BAD_RESPONSE,
        f"The server answered {status} with a body that is not an API error object.",
        _header_request_id(headers),
    )
    return error_class(status)(
        status,
        code,
        message,
        request_id,
        retry_after=parse_retry_after(headers.get("retry-after")),
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
