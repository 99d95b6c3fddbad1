"""The base URL of the service: keys travel over TLS, except to this machine."""

from __future__ import annotations

import ipaddress
import unicodedata
from typing import Final
from urllib.parse import quote, urlsplit, urlunsplit

from leadtui.api.contract import API_PREFIX
from leadtui.api.errors import ConfigurationError


def is_loopback(host: str) -> bool:
    """True for a name or address of this machine: localhost, 127.0.0.0/8, ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def validate_base_url(url: str) -> str:
    """Check and normalise the spec's `{base_url}` (without `/api/v1`, no trailing slash).

    Raises ConfigurationError, with a message meant for the user, for anything that is not
    an https URL, or an http URL to this machine (127.0.0.1, localhost, [::1]).
    """
    text = url.strip()
    if not text:
        raise ConfigurationError("The server URL is empty.")
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError as exc:
        raise ConfigurationError(f"The server URL is not valid: {exc}.") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not host:
        raise ConfigurationError(
            "The server URL must start with https:// and name a host, e.g. https://api.example.com."
        )
    if parts.username is not None or parts.password is not None:
        raise ConfigurationError("The server URL must not contain a user name or password.")
    if parts.query or parts.fragment:
        raise ConfigurationError("The server URL must not contain a query or a fragment.")
    if scheme == "http" and not is_loopback(host):
        raise ConfigurationError(
            f"Refusing plain http:// to {host}: the API key must travel over TLS. "
            "Use https:// (http:// is allowed only for 127.0.0.1, localhost and [::1])."
        )
    path = parts.path.rstrip("/")
    # People paste the full API root; the client adds the prefix itself.
    if path.endswith(API_PREFIX):
        path = path[: -len(API_PREFIX)]
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc = f"{netloc}:{port}"
    return urlunsplit((scheme, netloc, path, "", ""))


# Ids are opaque and short on every service seen; a bound keeps a runaway value off the wire.
ID_MAX: Final = 256


def id_problem(resource_id: str) -> str | None:
    """Why `resource_id` cannot be sent as one path segment, or None when it can.

    Percent-encoding is not enough: servers decode `%2F` and resolve `.` and `..` before
    routing, so such an id would name another resource (`searches/../me`).
    """
    if not resource_id:
        return "An id cannot be empty"
    if len(resource_id) > ID_MAX:
        return f"An id cannot be longer than {ID_MAX:,} characters"
    if resource_id in (".", ".."):
        return "An id cannot be . or .. (a server reads it as a step in the path)"
    if "/" in resource_id or "\\" in resource_id:
        return "An id cannot hold / or \\ (it is one segment of the path)"
    if any(unicodedata.category(char)[0] == "C" for char in resource_id):
        return "An id cannot hold a control character, nor one that is not valid text"
    return None


def segment(resource_id: str) -> str:
    """An id as one path segment: ids are opaque, so `?` or `#` in one must not leak out.

    An id that cannot be one segment (see `id_problem`) raises ConfigurationError, before
    anything is sent: it cannot name anything on the server.
    """
    problem = id_problem(resource_id)
    if problem is not None:
        raise ConfigurationError(f"{problem}; nothing was sent.")
    return quote(resource_id, safe="")
