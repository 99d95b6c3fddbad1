"""UI fixtures: apps built by `make_app` against the in-process sandbox, with time frozen."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.config.secrets import KeyStore
from leadtui.config.settings import Settings
from leadtui.ui.frame.app import LeadApp, make_app
from leadtui.ui.frame.services import AppDeps

SANDBOX_URL = "http://127.0.0.1"

AppFactory = Callable[..., LeadApp]


def _keep_in_memory(settings: Settings) -> None:
    """Tests of the frame alone: settings stay in memory."""


@pytest.fixture
def build_app(sandbox_app: Any, sandbox_clock: Any, tmp_path: Any) -> AppFactory:
    """`build_app("sk_demo_readonly")` → the app signed in with that demo key against the
    in-process sandbox; `build_app(None)` → not signed in (the sign-in screen opens). Other
    keyword arguments replace fields of `AppDeps`; `transport` stands between app and sandbox."""
    sandbox = httpx.ASGITransport(app=sandbox_app)

    def build(
        key: str | None = "sk_demo_full",
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **changes: Any,
    ) -> LeadApp:
        def connect(base_url: str, api_key: str) -> LeadClient:
            # No client-side retries: the UI's own retry path is what these tests look at.
            return LeadClient(base_url, api_key, transport=transport or sandbox, max_retries=0)

        deps = AppDeps(
            **{
                "settings": Settings(),
                "save_settings": _keep_in_memory,
                "base_url": SANDBOX_URL,
                "clock": sandbox_clock,
                "connect": connect,
                "keystore": KeyStore(insecure_path=tmp_path / "insecure-keys.json", timeout=2.0),
                "retry_delays": (0.3,),
                **changes,
            }
        )
        return make_app(deps, key=key, key_source="demo")

    return build


FIXED_REQUEST_ID = "req_0123456789abcdef01234567"


@pytest.fixture
def fixed_request_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sandbox request id is the same, so pictures of errors are stable."""
    from leadtui.sandbox import problems

    monkeypatch.setattr(problems, "new_request_id", lambda: FIXED_REQUEST_ID)


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC for the test (times on screen do not depend on the machine)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
