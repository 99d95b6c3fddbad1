"""The exchange observer: every attempt is reported, retries and failures too, never the key."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadtui.api.errors import NotFound, ServerError
from leadtui.api.exchange import Exchange
from tests.api.faults import KEY, Script, Sleeps, error_body, scripted_client


async def test_each_answer_is_reported_with_its_request_id(make_client: Any) -> None:
    seen: list[Exchange] = []
    client = make_client()
    client.on_exchange = seen.append
    await client.me()
    with pytest.raises(NotFound) as missing:
        await client.searches.get("srch_missing")
    first, second = seen
    assert (first.method, first.path, first.status, first.outcome) == ("GET", "/me", 200, "ok")
    assert (first.request_id or "").startswith("req_")
    assert (second.path, second.status, second.outcome) == (
        "/searches/srch_missing",
        404,
        "not_found",
    )
    assert second.request_id == missing.value.request_id
    assert all(e.seconds >= 0 and e.attempt == 1 for e in seen)


async def test_retries_and_dropped_links_are_reported_with_the_same_key() -> None:
    script = Script(
        [
            httpx.ConnectError("refused"),
            httpx.Response(503, json=error_body("internal_error", "req_9")),
            httpx.Response(503, json=error_body("internal_error", "req_9")),
        ]
    )
    seen: list[Exchange] = []
    async with scripted_client(script, Sleeps(), max_retries=2) as client:
        client.on_exchange = seen.append
        with pytest.raises(ServerError):
            await client.exports.create("srch_1", 5, idempotency_key="idem-0001-abcdef")
    assert [(e.attempt, e.status, e.outcome) for e in seen] == [
        (1, None, "no answer"),
        (2, 503, "internal_error"),
        (3, 503, "internal_error"),
    ]
    assert {e.idempotency_key for e in seen} == {"idem-0001-abcdef"}
    assert all(KEY not in repr(e) for e in seen)


async def test_an_observer_that_fails_does_not_fail_the_request(make_client: Any) -> None:
    def broken(exchange: Exchange) -> None:
        raise RuntimeError("full")

    client = make_client()
    client.on_exchange = broken
    assert (await client.me()).credits > 0
