"""Retry-After as a weapon: `inf` crashed the app (OverflowError), `1e308` showed a 300-digit
countdown. Only plain seconds are read; the transport still waits at most a minute itself."""

from __future__ import annotations

import math

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import MAX_RETRY_AFTER_SECONDS, RateLimited, ServerError, parse_retry_after
from tests.api.hostile import KEY, HostileServer, json_response

DAY = 24 * 60 * 60.0


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("0", 0.0),
        ("7", 7.0),
        (" 30 ", 30.0),
        ("1.5", 1.5),
        ("86400", DAY),
        ("86401", DAY),
        ("9" * 400, DAY),  # beyond float range, still a valid (very long) delay
        ("inf", None),
        ("Infinity", None),
        ("-inf", None),
        ("nan", None),
        ("1e308", None),
        ("1E3", None),
        ("-1", None),
        ("+5", None),
        ("0x10", None),
        ("", None),
        ("soon", None),
        ("Wed, 21 Oct 2015 07:28:00 GMT", None),
        ("٣", None),  # a digit, but not an ASCII one
        (None, None),
    ],
)
def test_only_plain_seconds_are_read_and_capped_at_a_day(
    header: str | None, seconds: float | None
) -> None:
    parsed = parse_retry_after(header)
    assert parsed == seconds
    assert parsed is None or (math.isfinite(parsed) and 0 <= parsed <= MAX_RETRY_AFTER_SECONDS)


class Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.mark.parametrize("header", ["inf", "nan", "1e308", "-5", "Wed, 21 Oct 2015 07:28:00 GMT"])
@pytest.mark.parametrize("status", [429, 503])
async def test_an_unreadable_retry_after_falls_back_to_capped_backoff(
    header: str, status: int
) -> None:
    answer = json_response(
        {"error": {"code": "rate_limited", "message": "slow down", "request_id": "req_9"}},
        status,
        [("Retry-After", header)],
    )
    sleeps = Sleeps()
    server = HostileServer(lambda seen: answer)
    async with server as url, LeadClient(url, KEY, max_retries=2, sleep=sleeps) as client:
        with pytest.raises((RateLimited, ServerError)) as caught:
            await client.me()
    assert caught.value.retry_after is None
    assert server.requests == 3
    assert len(sleeps.calls) == 2
    assert all(0 <= s <= 8.0 for s in sleeps.calls)  # the backoff cap, not the header


async def test_a_huge_retry_after_is_raised_at_once_with_a_day_at_most() -> None:
    answer = json_response(
        {"error": {"code": "rate_limited", "message": "later", "request_id": "req_8"}},
        429,
        [("Retry-After", "9" * 300)],
    )
    sleeps = Sleeps()
    server = HostileServer(lambda seen: answer)
    async with server as url, LeadClient(url, KEY, sleep=sleeps) as client:
        with pytest.raises(RateLimited) as caught:
            await client.exports.list()
    assert caught.value.retry_after == DAY
    assert sleeps.calls == []  # over a minute: the caller decides, the transport does not sleep
    assert server.requests == 1


async def test_a_moving_job_with_a_hostile_poll_hint_has_none() -> None:
    export = {"data": {"exportId": "e1", "status": "processing"}}
    server = HostileServer(lambda seen: json_response(export, 200, [("Retry-After", "inf")]))
    async with server as url, LeadClient(url, KEY) as client:
        job = await client.exports.get("e1")
    assert job.poll_after is None
