"""Retries, backoff, Retry-After and idempotency keys, under faults a real network produces."""

from __future__ import annotations

import httpx
import pytest

from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    Conflict,
    ConnectionFailed,
    InvalidRequest,
    RateLimited,
    RequestTimeout,
    ServerError,
)
from leadtui.api.transport import backoff
from tests.api.faults import KEY, Script, Sleeps, error_body, scripted_client

EXPORT = {"data": {"exportId": "exp_1", "status": "queued"}}
ME = {"data": {"credits": 10, "subscription": {"status": "active"}, "scopes": ["usage:read"]}}
SEARCH_BODY = {
    "activities": [{"name": "bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


def unavailable(retry_after: str | None = None) -> httpx.Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return httpx.Response(503, headers=headers, json=error_body("internal_error"))


@pytest.mark.parametrize("status", [429, 502, 503, 504])
async def test_get_is_retried_on_transient_statuses_then_succeeds(status: int) -> None:
    script = Script([httpx.Response(status, json=error_body("x")), httpx.Response(200, json=ME)])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps) as client:
        me = await client.me()
    assert me.credits == 10
    assert script.attempts == 2
    assert len(sleeps.calls) == 1


async def test_get_gives_up_after_max_retries_with_the_last_error() -> None:
    script = Script([unavailable()])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps, max_retries=2) as client:
        with pytest.raises(ServerError) as caught:
            await client.me()
    assert script.attempts == 3
    assert caught.value.status == 503
    assert caught.value.code == "internal_error"
    assert caught.value.request_id == "req_1"


async def test_max_retries_zero_means_one_attempt() -> None:
    script = Script([unavailable()])
    async with scripted_client(script, Sleeps(), max_retries=0) as client:
        with pytest.raises(ServerError):
            await client.me()
    assert script.attempts == 1


@pytest.mark.parametrize(
    ("status", "error", "code"),
    [(409, Conflict, "export_not_ready"), (400, InvalidRequest, "invalid_request")],
)
async def test_other_client_errors_are_never_retried(
    status: int, error: type[ApiError], code: str
) -> None:
    script = Script([httpx.Response(status, json=error_body(code))])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps) as client:
        with pytest.raises(error) as caught:
            await client.exports.results("exp_1")
    assert script.attempts == 1
    assert sleeps.calls == []
    assert caught.value.code == code


async def test_conflict_on_unlock_is_not_retried_and_carries_the_key() -> None:
    script = Script([httpx.Response(409, json=error_body("insufficient_credits"))])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(Conflict) as caught:
            await client.exports.create("s_1", 10)
    assert script.attempts == 1
    assert caught.value.code == "insufficient_credits"
    assert caught.value.idempotency_key == script.requests[0].headers["Idempotency-Key"]


async def test_retry_after_is_obeyed_exactly() -> None:
    script = Script([unavailable("2.5"), httpx.Response(200, json=ME)])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps) as client:
        await client.me()
    assert sleeps.calls == [2.5]


async def test_retry_after_beyond_a_minute_is_raised_for_a_countdown() -> None:
    script = Script(
        [httpx.Response(429, headers={"Retry-After": "120"}, json=error_body("rate_limited"))]
    )
    sleeps = Sleeps()
    async with scripted_client(script, sleeps) as client:
        with pytest.raises(RateLimited) as caught:
            await client.me()
    assert script.attempts == 1
    assert sleeps.calls == []
    assert caught.value.retry_after == 120.0
    assert caught.value.code == "rate_limited"


async def test_retry_after_of_exactly_sixty_seconds_is_waited() -> None:
    script = Script([unavailable("60"), httpx.Response(200, json=ME)])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps) as client:
        await client.me()
    assert sleeps.calls == [60.0]


def test_backoff_is_full_jitter_under_a_growing_capped_ceiling() -> None:
    for retry_number, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (10, 8.0)]:
        delays = [backoff(retry_number) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        # Jitter spreads the retries of many clients instead of synchronising them.
        assert max(delays) - min(delays) > ceiling / 4


async def test_backoff_sleeps_without_retry_after_stay_under_the_cap() -> None:
    script = Script([unavailable()])
    sleeps = Sleeps()
    async with scripted_client(script, sleeps, max_retries=3) as client:
        with pytest.raises(ServerError):
            await client.me()
    assert len(sleeps.calls) == 3
    assert all(0 <= s <= ceiling for s, ceiling in zip(sleeps.calls, [0.5, 1.0, 2.0], strict=True))


async def test_unlock_is_retried_with_the_same_generated_key_on_every_attempt() -> None:
    script = Script(
        [
            unavailable(),
            httpx.ConnectError("connection refused"),
            httpx.Response(202, headers={"Retry-After": "3"}, json=EXPORT),
        ]
    )
    async with scripted_client(script, Sleeps()) as client:
        export = await client.exports.create("s_1", 25)
    keys = script.header_values("Idempotency-Key")
    assert script.attempts == 3
    assert len(set(keys)) == 1
    assert keys[0] is not None
    assert export.idempotency_key == keys[0]
    assert export.poll_after == 3.0
    assert export.status == "queued"


async def test_each_unlock_call_gets_its_own_key() -> None:
    script = Script([httpx.Response(202, json=EXPORT)])
    async with scripted_client(script, Sleeps()) as client:
        first = await client.exports.create("s_1", 1)
        second = await client.exports.create("s_1", 1)
    assert first.idempotency_key != second.idempotency_key


async def test_a_given_key_is_sent_as_is_and_reported_on_failure() -> None:
    script = Script([unavailable()])
    async with scripted_client(script, Sleeps(), max_retries=1) as client:
        with pytest.raises(ServerError) as caught:
            await client.exports.create("s_1", 5, idempotency_key="journal-key-7")
    assert script.header_values("Idempotency-Key") == ["journal-key-7", "journal-key-7"]
    assert caught.value.idempotency_key == "journal-key-7"


async def test_transport_failure_of_a_keyed_call_carries_the_key() -> None:
    script = Script([httpx.ConnectError("down")])
    async with scripted_client(script, Sleeps(), max_retries=2) as client:
        with pytest.raises(ConnectionFailed) as caught:
            await client.extractions.launch("ext_1")
    assert script.attempts == 3
    assert caught.value.idempotency_key == script.requests[0].headers["Idempotency-Key"]


async def test_pause_patch_is_retried_with_one_key() -> None:
    script = Script(
        [
            unavailable(),
            httpx.Response(200, json={"data": {"extractionId": "x", "status": "paused"}}),
        ]
    )
    async with scripted_client(script, Sleeps()) as client:
        extraction = await client.extractions.pause("x")
    assert [r.method for r in script.requests] == ["PATCH", "PATCH"]
    assert len(set(script.header_values("Idempotency-Key"))) == 1
    assert extraction.status == "paused"
    assert extraction.idempotency_key == script.requests[0].headers["Idempotency-Key"]


async def test_post_without_key_is_not_retried() -> None:
    script = Script([unavailable()])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ServerError):
            await client.searches.create(SEARCH_BODY)
    assert script.attempts == 1
    assert script.requests[0].headers.get("Idempotency-Key") is None


async def test_post_without_key_is_not_retried_after_a_dropped_connection() -> None:
    script = Script([httpx.ReadError("connection reset")])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ConnectionFailed):
            await client.exports.retry("exp_1")
    assert script.attempts == 1


async def test_draft_update_without_key_is_not_retried() -> None:
    script = Script([unavailable()])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ServerError):
            await client.extractions.update_draft("x", {"categories": ["bakery"]})
    assert script.attempts == 1


async def test_connect_errors_and_timeouts_become_typed_errors_after_retries() -> None:
    connect = Script([httpx.ConnectError("refused")])
    timeout = Script([httpx.ReadTimeout("slow")])
    async with scripted_client(connect, Sleeps()) as client:
        with pytest.raises(ConnectionFailed, match="Could not reach the server"):
            await client.searches.list()
    async with scripted_client(timeout, Sleeps()) as client:
        with pytest.raises(RequestTimeout, match="did not answer"):
            await client.searches.list()
    assert connect.attempts == 4
    assert timeout.attempts == 4


async def test_success_after_timeouts_returns_the_answer() -> None:
    script = Script([httpx.ConnectTimeout("slow"), httpx.Response(200, json=ME)])
    async with scripted_client(script, Sleeps()) as client:
        me = await client.me()
    assert me.active


async def test_requests_carry_bearer_auth_user_agent_and_the_api_prefix() -> None:
    script = Script([httpx.Response(200, json=ME)])
    async with scripted_client(script, Sleeps()) as client:
        await client.me()
    (me_request,) = script.requests
    assert me_request.url.path == "/api/v1/me"
    assert me_request.headers["Authorization"] == f"Bearer {KEY}"
    assert me_request.headers["User-Agent"].startswith("leadtui/")


async def test_ids_are_sent_as_one_path_segment() -> None:
    script = Script([httpx.Response(200, json={"searchId": "a?b#c%"})])
    async with scripted_client(script, Sleeps()) as client:
        await client.searches.get("a?b#c%")
    assert script.requests[0].url.raw_path == b"/api/v1/searches/a%3Fb%23c%25"


@pytest.mark.parametrize("bad", ["exp_\udcff", "\ud800"])
async def test_ids_and_cursors_that_are_not_valid_text_are_refused_before_sending(
    bad: str,
) -> None:
    # Undecodable bytes in a command line argument arrive as lone surrogates.
    script = Script([httpx.Response(200, json={"data": [], "next_cursor": None})])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ConfigurationError, match="not valid text"):
            await client.exports.get(bad)
        with pytest.raises(
            ConfigurationError, match="a query parameter cannot be encoded"
        ) as caught:
            await client.exports.list(cursor=bad)
    assert caught.value.__context__ is None
    assert script.attempts == 0
