"""`LeadClient`: the typed async client for the whole Lead Data API."""

from __future__ import annotations

import os
import ssl
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from leadtui.api.deadlines import DEFAULT_TIMEOUT
from leadtui.api.errors import ConfigurationError
from leadtui.api.exchange import ExchangeObserver
from leadtui.api.keys import api_key_problem, mask_key
from leadtui.api.transport import Sleep, Transport
from leadtui.api.urls import validate_base_url

# The resources, the models and parsing are imported on first use, not with the client: the
# TUI builds its client before the first frame, and start-up time is a goal.
if TYPE_CHECKING:
    from leadtui.api.exports import Exports
    from leadtui.api.extractions import Extractions
    from leadtui.api.models import Identity, Usage
    from leadtui.api.searches import Searches

BASE_URL_ENV = "LEADTUI_BASE_URL"
API_KEY_ENV = "LEADTUI_API_KEY"


class LeadClient:
    """One long-lived connection pool to the service; use `async with` or call `aclose()`.

    `base_url` is the spec's `{base_url}` without `/api/v1`. Missing arguments come from
    LEADTUI_BASE_URL and LEADTUI_API_KEY. The key is never shown: see `key_masked`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | SecretStr | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        url = base_url if base_url is not None else os.environ.get(BASE_URL_ENV)
        if not url:
            raise ConfigurationError(
                f"No server URL: pass base_url or set {BASE_URL_ENV} (e.g. https://api.example.com)."
            )
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        secret = key if isinstance(key, SecretStr) else SecretStr(key or "")
        if not secret.get_secret_value().strip():
            raise ConfigurationError(
                f"No API key: pass api_key or set {API_KEY_ENV}. "
                "Keys are created on the account page of the Lead Data service."
            )
        # A key that cannot travel in a header is refused here, in words that never hold it.
        problem = api_key_problem(secret.get_secret_value())
        if problem is not None:
            raise ConfigurationError(f"The API key cannot be used: {problem}.")
        if max_retries < 0:
            raise ConfigurationError("max_retries must be 0 or more.")
        self._base_url = validate_base_url(url)
        self._key = secret
        if transport is None and self._base_url.startswith("http://"):
            # http:// is loopback only (validate_base_url). httpx's default pool loads the CA
            # bundle at construction (~40 ms of start-up) although plain http never uses it;
            # this context loads no CA and still demands a verified certificate and host name,
            # so an https request through it fails instead of going out unverified.
            transport = httpx.AsyncHTTPTransport(verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
        self._transport = Transport(
            self._base_url,
            secret,
            timeout=timeout,
            max_retries=max_retries,
            transport=transport,
            sleep=sleep,
        )

    @cached_property
    def searches(self) -> Searches:
        """Searches and their leads (`/searches`)."""
        from leadtui.api.searches import Searches

        return Searches(self._transport)

    @cached_property
    def exports(self) -> Exports:
        """Unlocks, export jobs and downloads (`/exports`)."""
        from leadtui.api.exports import Exports

        return Exports(self._transport)

    @cached_property
    def extractions(self) -> Extractions:
        """Extraction jobs and drafts (`/extractions`)."""
        from leadtui.api.extractions import Extractions

        return Extractions(self._transport)

    @property
    def base_url(self) -> str:
        """The normalised `{base_url}`, without `/api/v1`."""
        return self._base_url

    @property
    def on_exchange(self) -> ExchangeObserver | None:
        """Told of every attempt at a request, retries and failures included (an `Exchange`:
        method, path, status, duration, request id, idempotency key; never the API key)."""
        return self._transport.on_exchange

    @on_exchange.setter
    def on_exchange(self, observer: ExchangeObserver | None) -> None:
        self._transport.on_exchange = observer

    @property
    def key_masked(self) -> str:
        """The API key as it may be shown, e.g. `…full` (see `mask_key`)."""
        return mask_key(self._key.get_secret_value())

    def __repr__(self) -> str:
        return f"LeadClient(base_url={self._base_url!r}, key={self.key_masked!r})"

    async def __aenter__(self) -> LeadClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def me(self) -> Identity:
        """The account behind the key: credits, subscription, scopes."""
        from leadtui.api.models import Identity
        from leadtui.api.parsing import parse_record

        return parse_record(await self._transport.request("GET", "/me"), Identity)

    async def usage(self) -> Usage:
        """30-day usage, credits and access status."""
        from leadtui.api.models import Usage
        from leadtui.api.parsing import parse_record

        return parse_record(await self._transport.request("GET", "/usage"), Usage)
