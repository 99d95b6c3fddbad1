"""Answers that are not HTTP, and redirects: each has its own type, so callers never read text.

A server that was reached but sent a broken status line or header is not "unreachable"; a 3xx
is a redirect that was not followed, not "a body that is not an API error object".
"""

from __future__ import annotations

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import (
    REDIRECT_NOT_FOLLOWED,
    ApiError,
    ConnectionFailed,
    MalformedResponse,
    Redirected,
    TransportError,
)
from tests.api.hostile import KEY, HostileServer, Seen, json_response, raw_response

ME = {"data": {"credits": 5, "subscription": {"status": "active"}}}

BROKEN = [
    ("a header line without a colon", b"HTTP/1.1 200 OK\r\nX-Broken header\r\n\r\n{}"),
    ("a NUL in a header", b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: \x00\r\n\r\n{}"),
    ("two Content-Lengths", b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
    ("a status line of garbage", b"garbage\r\n\r\n"),
    ("an unknown Transfer-Encoding", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}"),
    ("an upgrade nobody asked for", b"HTTP/1.1 101 Switching\r\nUpgrade: x\r\n\r\n"),
]


async def no_sleep(seconds: float) -> None:
    return None


@pytest.mark.parametrize("raw", [case[1] for case in BROKEN], ids=[case[0] for case in BROKEN])
async def test_a_reached_server_with_a_broken_answer_is_malformed_not_unreachable(
    raw: bytes,
) -> None:
    server = HostileServer(lambda seen: raw)
    async with server as url, LeadClient(url, KEY, max_retries=1, sleep=no_sleep) as client:
        with pytest.raises(MalformedResponse) as caught:
            await client.me()
    error = caught.value
    assert isinstance(error, TransportError)  # retried like a network failure...
    assert not isinstance(error, ConnectionFailed)  # ...but not called unreachable
    assert server.requests == 2
    assert "was reached" in error.message
    assert "GET /api/v1/me" in error.message


async def test_a_malformed_answer_to_a_spend_keeps_its_key_for_a_resend() -> None:
    server = HostileServer(lambda seen: BROKEN[0][1])
    async with server as url, LeadClient(url, KEY, max_retries=2, sleep=no_sleep) as client:
        with pytest.raises(MalformedResponse) as caught:
            await client.exports.create("s1", 2, idempotency_key="spend-1")
    assert caught.value.idempotency_key == "spend-1"
    assert [seen.headers["idempotency-key"] for seen in server.seen] == ["spend-1"] * 3


async def test_nothing_listening_is_still_unreachable() -> None:
    server = HostileServer(lambda seen: b"")
    async with server as url:
        pass  # closed: the port now refuses connections
    async with LeadClient(url, KEY, max_retries=0) as client:
        with pytest.raises(ConnectionFailed):
            await client.me()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_redirect_is_named_with_its_target_and_never_followed(status: int) -> None:
    target = HostileServer(lambda seen: json_response(ME))
    async with target as elsewhere:

        def answer(seen: Seen) -> bytes:
            headers = [("Location", f"{elsewhere}/api/v1/me"), ("X-Request-Id", "req_r")]
            return json_response({"error": {"code": "x"}}, status, headers)

        origin = HostileServer(answer)
        async with origin as url, LeadClient(url, KEY, sleep=no_sleep) as client:
            with pytest.raises(Redirected) as caught:
                await client.me()
    error = caught.value
    assert isinstance(error, ApiError)
    assert (error.status, error.code, error.request_id) == (status, REDIRECT_NOT_FOLLOWED, "req_r")
    assert error.location == f"{elsewhere}/api/v1/me"
    assert f"redirect to {elsewhere}/api/v1/me, not followed" in error.message
    assert origin.requests == 1  # not retried either
    assert target.requests == 0  # the key never went there


async def test_a_hostile_location_is_cut_short_and_stripped_of_control_characters() -> None:
    # ESC itself is refused by the HTTP parser; the C1 CSI (0x9b) gets through as latin-1.
    location = "https://evil.example/\x9b2J" + "a" * 5000

    def answer(seen: Seen) -> bytes:
        return raw_response(302, b"", [("Location", location)], reason="Found")

    async with HostileServer(answer) as url, LeadClient(url, KEY) as client:
        with pytest.raises(Redirected) as caught:
            await client.exports.create("s1", 1, idempotency_key="spend-2")
    error = caught.value
    assert error.location is not None
    assert "\x9b" not in error.location
    assert error.location.startswith("https://evil.example/?2J")
    assert len(error.location) <= 201
    assert error.idempotency_key == "spend-2"


async def test_a_redirect_without_location_says_so() -> None:
    answer = raw_response(307, b"", reason="Temporary Redirect")
    async with HostileServer(lambda seen: answer) as url, LeadClient(url, KEY) as client:
        with pytest.raises(Redirected, match="redirect without a Location") as caught:
            await client.usage()
    assert caught.value.location is None
