"""How long the client waits for the server, in one place: the client uses it, and
`leadtui --help` states it (importing this costs nothing: no httpx, no pydantic)."""

from __future__ import annotations

from typing import Final

# Seconds between two bytes of an answer (httpx's read timeout) unless the caller says.
DEFAULT_TIMEOUT: Final = 10.0
# Connecting and answering one request (headers and a JSON body), over all its retries, may
# take this many times the read timeout; a download's body must keep a pace instead.
DEADLINE_PER_TIMEOUT: Final = 3.0
REQUEST_DEADLINE: Final = DEFAULT_TIMEOUT * DEADLINE_PER_TIMEOUT
# A streamed download must bring this much in every deadline window, or it counts as stalled.
MIN_STREAM_BYTES_PER_WINDOW: Final = 64 * 1024
