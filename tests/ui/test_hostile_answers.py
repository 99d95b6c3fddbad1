"""Hostile server answers: each reaches the screen as a readable error.

The sandbox always answers well-formed JSON, so a proxy's HTML page, a body cut short, the
wrong types and a bare `null` come from an `httpx.MockTransport` in front of it: the listed
paths get the hostile answer, everything else (and every path once `healthy`) goes on to
the in-process sandbox. What is checked is what a user sees: the error panel's title for
`bad_response`, the HTTP status, the request id when the answer had one, no traceback, and
an app that still switches screens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from leadtui.api.contract import API_PREFIX, REQUEST_ID_HEADER
from leadtui.api.models import SearchRequest
from leadtui.ui.frame.app import LeadApp
from leadtui.ui.screens.account import AccountScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.screens.searches import SearchesScreen
from tests.ui.conftest import AppFactory
from tests.ui.pilot import advance, settle, wait_for_text, wait_until
from tests.ui.screen import flat_text

PROXY_REQUEST_ID = "req_proxy0000000000000000001"

HTML_502 = (
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    b"</body>\r\n</html>\r\n"
)
# What each path answers when its body has the wrong types: the right shape, wrong values.
WRONG_TYPES: dict[str, bytes] = {
    "/me": b'{"data": {"credits": "lots", "scopes": 7, "subscription": []}}',
    "/usage": b'{"data": {"window_days": "thirty", "daily": {"a": 1}}}',
    "/searches": b'{"data": [{"searchId": 12, "result_count": "many"}], "next_cursor": 5}',
    "/exports": b'{"data": {"not": "a list"}}',
    "/extractions": b'{"data": [null, 3]}',
}


@dataclass
class Hostile:
    """One kind of bad answer, given to GETs of `paths` until `healthy` is set."""

    status: int
    body: Callable[[str], bytes]
    content_type: str
    request_id: str | None = None
    paths: frozenset[str] = frozenset()
    healthy: bool = False
    served: list[str] = field(default_factory=list)

    def answer(self, method: str, path: str) -> httpx.Response | None:
        if self.healthy or method != "GET" or path not in self.paths:
            return None
        self.served.append(path)
        headers = {"Content-Type": self.content_type}
        if self.request_id:
            headers[REQUEST_ID_HEADER] = self.request_id
        return httpx.Response(self.status, headers=headers, content=self.body(path))


def _transport(
    sandbox_app: Any, hostile: Hostile, headers: dict[str, str] | None = None
) -> httpx.MockTransport:
    sandbox = httpx.ASGITransport(app=sandbox_app)

    async def handle(request: httpx.Request) -> httpx.Response:
        path = request.url.path.removeprefix(API_PREFIX)
        bad = hostile.answer(request.method, path)
        if bad is not None:
            bad.headers.update(headers or {})
            return bad
        return await sandbox.handle_async_request(request)

    return httpx.MockTransport(handle)


KINDS = {
    "html-502": lambda: Hostile(502, lambda _: HTML_502, "text/html", PROXY_REQUEST_ID),
    "truncated-json": lambda: Hostile(
        200, lambda _: b'{"data": {"credits": 10000, "scopes": ["usa', "application/json"
    ),
    "wrong-types": lambda: Hostile(
        200, lambda path: WRONG_TYPES[path], "application/json", PROXY_REQUEST_ID
    ),
    "json-null": lambda: Hostile(200, lambda _: b"null", "application/json"),
}


@pytest.fixture
def hostile_app(
    build_app: AppFactory, sandbox_app: Any
) -> Callable[[str, frozenset[str]], tuple[LeadApp, Hostile]]:
    """`hostile_app(kind, paths)` → an app whose server answers `paths` with that kind."""

    def build(kind: str, paths: frozenset[str]) -> tuple[LeadApp, Hostile]:
        hostile = KINDS[kind]()
        hostile.paths = paths
        app = build_app(transport=_transport(sandbox_app, hostile), retry_delays=(0.2,))
        return app, hostile

    return build


_flat = flat_text


def _assert_bad_response(app: LeadApp, status: int, request_id: str | None) -> None:
    panel = app.screen.query_one("#error-panel")
    assert panel.display, "the error panel is showing"
    assert panel.border_title == "Unexpected answer"
    text = _flat(app)
    assert f"HTTP {status} · code bad_response" in text
    if request_id:
        assert f"request id {request_id}" in text
    else:
        # No id line when the answer carried none (the text may still mention request ids).
        assert "request id req_" not in text
    assert "Traceback" not in text
    assert "ValidationError" not in text


ACCOUNT_PATHS = frozenset({"/me", "/usage"})


@pytest.mark.parametrize(
    ("kind", "status", "request_id"),
    [
        ("html-502", 502, PROXY_REQUEST_ID),
        ("truncated-json", 200, None),
        ("wrong-types", 200, PROXY_REQUEST_ID),
        ("json-null", 200, None),
    ],
)
async def test_account_shows_the_bad_answer_and_stays_navigable(
    hostile_app: Any, kind: str, status: int, request_id: str | None
) -> None:
    app, hostile = hostile_app(kind, ACCOUNT_PATHS)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert "/me" in hostile.served
        _assert_bad_response(app, status, request_id)
        assert "The account could not be loaded" in _flat(app)
        # Still running and navigable: another screen loads from the (healthy) sandbox.
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, SearchesScreen)
        assert "searches ·" in _flat(app) or "No searches yet" in _flat(app)
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert "Traceback" not in _flat(app)
        assert app.is_running


@pytest.mark.parametrize("kind", list(KINDS))
async def test_searches_list_shows_the_bad_answer(hostile_app: Any, kind: str) -> None:
    app, hostile = hostile_app(kind, frozenset({"/searches"}))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, SearchesScreen)
        assert hostile.served == ["/searches"]
        request_id = PROXY_REQUEST_ID if kind in ("html-502", "wrong-types") else None
        _assert_bad_response(app, 502 if kind == "html-502" else 200, request_id)
        # Nothing half-read is drawn as if it were a search.
        assert app.screen.query_one("#searches-table").row_count == 0
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, JobsScreen)
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, SearchesScreen)
        assert "Traceback" not in _flat(app)


@pytest.mark.parametrize("kind", list(KINDS))
async def test_jobs_dashboard_marks_itself_stale_then_recovers(hostile_app: Any, kind: str) -> None:
    app, hostile = hostile_app(kind, frozenset({"/exports", "/extractions"}))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        search = await app.client.searches.create(
            SearchRequest.model_validate(
                {
                    "activities": [{"name": "Bakeries"}],
                    "countries": [{"name": "France"}],
                    "localisations": [{"name": "Lyon"}],
                }
            )
        )
        export = await app.client.exports.create(search.searchId, 20)
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, JobsScreen)
        assert {"/exports", "/extractions"} & set(hostile.served)
        text = _flat(app)
        assert "⚠ stale: Unexpected answer · not loaded" in text
        # The same panel as every screen: what went wrong, with the status and code.
        panel = app.screen.query_one("#error-panel")
        assert panel.border_title == "Unexpected answer"
        assert "code bad_response" in text
        assert export.exportId not in text
        assert "Traceback" not in text
        # The server mends; r reads again and the stale mark goes.
        hostile.healthy = True
        await pilot.press("r")
        await settle(pilot)
        text = _flat(app)
        assert export.exportId in text
        assert "stale" not in text
        assert "● live" in text
        assert app.screen.query_one("#error-panel").report is None  # the panel is gone
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, AccountScreen)
        assert "10,000" in _flat(app)


async def test_html_502_counts_down_and_recovers_by_itself(
    hostile_app: Any, sandbox_clock: Any
) -> None:
    app, hostile = hostile_app("html-502", ACCOUNT_PATHS)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one("#error-panel")
        assert panel.border_title == "Unexpected answer"
        text = _flat(app)
        assert "HTTP 502 · code bad_response" in text
        assert "Retrying in 1s…" in text
        hostile.healthy = True
        # No key pressed: once the countdown (retry_delays=(0.2,)) has run out on the app's
        # clock, the load runs again.
        await advance(pilot, sandbox_clock, 1)
        await wait_until(pilot, lambda: not panel.display)
        text = await wait_for_text(pilot, "10,000")
        assert "Unexpected answer" not in text


@pytest.mark.parametrize(
    ("retry_after", "shown"),
    # The client reads a day at most (a longer wait is "a day"); inf and 1e308 are not
    # delay-seconds, so they count as absent (the UI's own countdown runs, see above).
    [("100000", "24 hours"), ("99999999999999999999999", "24 hours")],
)
async def test_a_huge_retry_after_is_told_in_words_and_not_counted_down(
    build_app: AppFactory, sandbox_app: Any, sandbox_clock: Any, retry_after: str, shown: str
) -> None:
    hostile = Hostile(
        429,
        lambda _: (
            b'{"error": {"code": "rate_limited", "message": "slow down", '
            b'"request_id": "req_proxy0000000000000000001"}}'
        ),
        "application/json",
        PROXY_REQUEST_ID,
        paths=ACCOUNT_PATHS,
    )
    transport = _transport(sandbox_app, hostile, {"Retry-After": retry_after})
    app = build_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await wait_for_text(pilot, f"The server asks to wait {shown}")
        assert "not retrying by itself" in text
        assert "Retrying in" not in text
        await settle(pilot)
        served = len(hostile.served)
        await advance(pilot, sandbox_clock, 7 * 86400)
        await settle(pilot)
        assert len(hostile.served) == served  # nothing retried by itself
        assert app.is_running
