"""UI fixtures: apps built by `make_app` against the in-process sandbox, with time frozen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.config.secrets import KeyStore
from leadtui.ui.app import LeadApp, make_app
from leadtui.ui.services import AppServices

SANDBOX_URL = "http://127.0.0.1"

ServicesFactory = Callable[..., AppServices]


@pytest.fixture
def make_services(sandbox_app: Any, sandbox_clock: Any, tmp_path: Any) -> ServicesFactory:
    """`make_services("sk_demo_readonly")` → services signed in with that demo key;
    `make_services(None)` → not signed in (the sign-in screen opens)."""
    sandbox = httpx.ASGITransport(app=sandbox_app)

    def build(
        key: str | None = "sk_demo_full",
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **changes: Any,
    ) -> AppServices:
        def connect(base_url: str, api_key: str) -> LeadClient:
            # No client-side retries: the UI's own retry path is what these tests look at.
            return LeadClient(base_url, api_key, transport=transport or sandbox, max_retries=0)

        client = connect(SANDBOX_URL, key) if key else None
        services = AppServices(
            client=client,
            base_url=SANDBOX_URL,
            key_masked=client.key_masked if client else "",
            key_source="demo" if client else "",
            clock=sandbox_clock,
            connect=connect,
            keystore=KeyStore(insecure_path=tmp_path / "insecure-keys.json", timeout=2.0),
            retry_delays=(0.3,),
        )
        for name, value in changes.items():
            setattr(services, name, value)
        return services

    return build


@pytest.fixture
def build_app(make_services: ServicesFactory) -> Callable[..., LeadApp]:
    def build(key: str | None = "sk_demo_full", **changes: Any) -> LeadApp:
        return make_app(make_services(key, **changes))

    return build


FIXED_REQUEST_ID = "req_0123456789abcdef01234567"


@pytest.fixture
def fixed_request_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sandbox request id is the same, so pictures of errors are stable."""
    from leadtui.sandbox import problems

    monkeypatch.setattr(problems, "new_request_id", lambda: FIXED_REQUEST_ID)
