"""Errors, everywhere the same way: by error.code, with code and request id, never a traceback."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadtui.api.errors import ApiError
from leadtui.ui.model.errors import describe
from leadtui.ui.screens.account import AccountScreen
from leadtui.ui.screens.sign_in import SignInScreen
from tests.ui.pilot import advance, settle, wait_for_text, wait_until
from tests.ui.screen import flat_text


class RefusingFirst(httpx.AsyncBaseTransport):
    """Refuses the first `failures` connections (a fault the sandbox cannot produce), then
    forwards to the in-process sandbox."""

    def __init__(self, sandbox_app: Any, failures: int) -> None:
        self.inner = httpx.ASGITransport(app=sandbox_app)
        self.failures = failures
        self.sent = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent += 1
        if self.failures > 0:
            self.failures -= 1
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)


_flat = flat_text
_loaded = settle


async def test_401_says_key_rejected_and_offers_sign_in(build_app: Any) -> None:
    app = build_app("sk_demo_revoked")
    async with app.run_test(size=(100, 30)) as pilot:
        await _loaded(pilot)
        panel = app.screen.query_one("#error-panel")
        assert panel.border_title == "Key rejected"
        text = _flat(app)
        assert "The key is missing, expired or revoked." in text
        assert "HTTP 401 · code unauthorized" in text
        assert f"request id {app.screen.query_one('#error-panel').request_id}" in text
        assert "Press i to sign in with another key" in text
        assert app.key_rejected
        request_id = panel.request_id
        await pilot.press("c")
        assert app.clipboard == request_id
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, SignInScreen)


@pytest.mark.parametrize(
    ("key", "title", "advice"),
    [
        ("sk_demo_inactive", "Subscription inactive", "Renew it"),
        ("sk_demo_suspended", "Data access suspended", "Contact the service's support"),
    ],
)
async def test_403_variants_say_which_and_what_to_do(
    build_app: Any, key: str, title: str, advice: str
) -> None:
    app = build_app(key)
    async with app.run_test(size=(80, 24)) as pilot:
        await _loaded(pilot)
        assert app.screen.query_one("#error-panel").border_title == title
        text = _flat(app)
        assert advice in text
        assert "HTTP 403" in text
        assert "request id req_" in text
        assert "Traceback" not in text


async def test_403_missing_scope_from_the_server(build_app: Any) -> None:
    client = build_app("sk_demo_readonly").client
    with pytest.raises(ApiError) as caught:
        await client.searches.create(
            {
                "activities": [{"name": "bakery"}],
                "countries": [{"name": "FR"}],
                "localisations": [{"name": "Paris"}],
            }
        )
    await client.aclose()
    report = describe(caught.value)
    assert report.title == "Missing scope"
    assert report.status == 403
    assert report.request_id


async def test_network_failure_counts_down_then_retries_by_itself(
    build_app: Any, sandbox_app: Any, sandbox_clock: Any
) -> None:
    refusing = RefusingFirst(sandbox_app, failures=2)
    app = build_app(transport=refusing)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await wait_for_text(pilot, "Retrying in 1s…")
        assert isinstance(app.screen, AccountScreen)
        assert "Cannot reach the server" in text
        # The countdown runs on the app's clock: while it stands still, nothing is retried.
        await settle(pilot)
        assert "Retrying in 1s…" in flat_text(app)
        panel = app.screen.query_one("#error-panel")
        for _ in range(2):  # the first retry meets the second refusal; the next gets through
            sent = refusing.sent
            await advance(pilot, sandbox_clock, 1)
            # The countdown checks the clock on a timer of its own: wait for the retry itself.
            await wait_until(pilot, lambda sent=sent: refusing.sent > sent)
            await settle(pilot)
        await wait_until(pilot, lambda: not panel.has_class("-visible"))
        await wait_for_text(pilot, "◆ 10,000 credits")
        assert refusing.failures == 0


def test_unexpected_exception_has_words_not_a_traceback() -> None:
    report = describe(KeyError("boom"))
    assert report.title == "Unexpected error"
    assert "KeyError" in report.text
    assert "Traceback" not in report.text
