"""The sandbox as an HTTP server under attack: replays keep their polling hint, duplicate
keys and forged cursors are refused, a trailing slash is a plain 404, cursors are signed with
a secret of this start (or of the kept file), and a crash keeps the connection usable."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox
from leadtui.sandbox.routes import account
from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth, create_search, credits, error_code, unlock


async def test_a_replayed_unlock_carries_the_polling_hint_of_the_export_now(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    search = await create_search(sandbox_http)
    first = await unlock(sandbox_http, search["searchId"], 3, "hint")
    assert first.status_code == 202
    assert first.headers["Retry-After"] == "1"
    again = await unlock(sandbox_http, search["searchId"], 3, "hint")
    assert (again.status_code, again.json()) == (202, first.json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Retry-After"] == first.headers["Retry-After"]
    sandbox_clock.advance(60)  # long ready: the hint is the shortest, the body the first one
    late = await unlock(sandbox_http, search["searchId"], 3, "hint")
    assert (late.status_code, late.json()) == (202, first.json())
    assert late.headers["Retry-After"] == "1"


async def test_a_replayed_launch_carries_the_polling_hint_while_it_runs(
    sandbox_app: Any, sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    sandbox_app.state.sandbox.config.job_seconds = 30.0
    body = {
        "categories": ["Florists"],
        "countries": ["Portugal"],
        "localisations": ["Porto"],
        "enrichment_sources": ["website"],
    }
    headers = auth(**{"Idempotency-Key": "launch"})
    first = await sandbox_http.post(f"{API}/extractions", headers=headers, json=body)
    assert first.headers["Retry-After"] == "5"
    sandbox_clock.advance(10)  # running now, 80 s to go: the hint is capped
    again = await sandbox_http.post(f"{API}/extractions", headers=headers, json=body)
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["Retry-After"] == "5"
    sandbox_clock.advance(100)  # completed: nothing to poll for
    done = await sandbox_http.post(f"{API}/extractions", headers=headers, json=body)
    assert done.status_code == 201
    assert "Retry-After" not in done.headers


async def test_two_idempotency_keys_on_one_request_are_refused(
    sandbox_http: httpx.AsyncClient,
) -> None:
    search = await create_search(sandbox_http)
    r = await sandbox_http.post(
        f"{API}/searches/{search['searchId']}/exports",
        headers=[
            *auth().items(),
            ("Idempotency-Key", "first"),
            ("Idempotency-Key", "second"),
        ],
        json={"additional_results": 2},
    )
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"
    assert "Idempotency-Key" in r.json()["error"]["message"]
    assert await credits(sandbox_http) == 10_000


@pytest.mark.parametrize("path", [f"{API}/me/", f"{API}/searches/", f"{API}/openapi.json/"])
async def test_a_trailing_slash_is_a_404_with_the_error_body(
    sandbox_http: httpx.AsyncClient, path: str
) -> None:
    r = await sandbox_http.get(path, headers={**auth(), "Host": "evil.example"})
    assert r.status_code == 404
    assert error_code(r) == "not_found"
    assert "location" not in r.headers


async def test_the_api_root_answers_with_or_without_its_slash(
    sandbox_http: httpx.AsyncClient,
) -> None:
    bare = await sandbox_http.get(API)
    slashed = await sandbox_http.get(f"{API}/")
    assert bare.status_code == slashed.status_code == 200
    assert bare.json() == slashed.json()


def _forged(app: Any, list_name: str, position: int) -> str:
    cursor: str = app.state.sandbox.pages.encode_cursor(list_name, position)
    return cursor


@pytest.mark.parametrize("position", [2**63, 2**62 + 1, -1])
async def test_a_signed_cursor_out_of_range_is_refused(
    sandbox_app: Any, sandbox_http: httpx.AsyncClient, position: int
) -> None:
    cursor = _forged(sandbox_app, "exports:acct_demo", position)
    r = await sandbox_http.get(f"{API}/exports", headers=auth(), params={"cursor": cursor})
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"


@pytest.mark.parametrize("position", [-1, -5, 4, 2**63])
async def test_results_cursors_stay_inside_the_export(
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    sandbox_clock: FakeClock,
    position: int,
) -> None:
    search = await create_search(sandbox_http)
    export = (await unlock(sandbox_http, search["searchId"], 3, "k")).json()["data"]
    sandbox_clock.advance(1)
    cursor = _forged(sandbox_app, f"export-results:{export['exportId']}", position)
    r = await sandbox_http.get(
        f"{API}/exports/{export['exportId']}/results", headers=auth(), params={"cursor": cursor}
    )
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"


async def _first_cursor(app: Any) -> str:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as http:
        for n in range(3):
            await create_search(http, activity=f"Bakery {n}")
        r = await http.get(f"{API}/searches", headers=auth(), params={"limit": 1})
        cursor: str = r.json()["next_cursor"]
        return cursor


async def _walk(app: Any, cursor: str) -> int:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as http:
        r = await http.get(f"{API}/searches", headers=auth(), params={"cursor": cursor})
        return r.status_code


async def test_cursors_are_signed_by_each_start_unless_the_state_is_kept(tmp_path: Path) -> None:
    cursor = await _first_cursor(create_app(SandboxConfig()))
    # Another start, same searches: the cursor is not one it issued.
    other = create_app(SandboxConfig())
    await _first_cursor(other)
    assert await _walk(other, cursor) == 400
    kept = tmp_path / "state.db"
    first = create_app(SandboxConfig(db_path=kept))
    cursor = await _first_cursor(first)
    first.state.sandbox.store.close()
    restarted = create_app(SandboxConfig(db_path=kept))
    assert await _walk(restarted, cursor) == 200
    restarted.state.sandbox.store.close()


def test_after_a_crash_the_connection_answers_500_and_stays_usable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crash(row: Any) -> dict[str, str]:
        raise RuntimeError("a bug in the handler")

    monkeypatch.setattr(account, "_access", crash)
    with EmbeddedSandbox() as sandbox:
        host, port = sandbox.base_url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            conn.request("GET", f"{API}/me", headers=auth())
            crashed = conn.getresponse()
            body = json.loads(crashed.read())
            assert crashed.status == 500
            assert body["error"]["code"] == "internal_error"
            assert body["error"]["request_id"] == crashed.getheader("X-Request-Id")
            assert crashed.getheader("Connection") != "close"
            # The same connection serves the next request.
            conn.request("GET", f"{API}/", headers=auth())
            after = conn.getresponse()
            after.read()
            assert after.status == 200
        finally:
            conn.close()
