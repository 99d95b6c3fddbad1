"""The server a spend belongs to, spelled one way whatever way the user wrote it.

The journal records intents by this origin, so `https://H:443/` and `https://h` find the same
pending spend. Every loopback spelling (`localhost`, `127.0.0.1`, any 127.x, `[::1]`) becomes
`localhost`: one sandbox reached two ways is one server to the user, and hiding its pending
spends would be worse than the rare two servers on one port behind IPv4 and IPv6.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit, urlunsplit

from leadtui.api.contract import API_PREFIX
from leadtui.api.urls import is_loopback

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
LOOPBACK_HOST: Final = "localhost"


def spend_origin(base_url: str) -> str:
    """`scheme://host[:port][/path]`: scheme and host in lower case, the default port and a
    trailing slash or `/api/v1` dropped, every loopback host as `localhost`. Never raises: a
    value it cannot parse is returned stripped (it then only matches itself)."""
    text = base_url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if not scheme or not host:
        return text
    if is_loopback(host):
        host = LOOPBACK_HOST
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    path = parts.path.rstrip("/")
    if path.endswith(API_PREFIX):
        path = path[: -len(API_PREFIX)].rstrip("/")
    return urlunsplit((scheme, netloc, path, "", ""))
