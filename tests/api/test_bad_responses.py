"""Whatever a proxy or a broken server sends, callers get a typed `bad_response` error."""

from __future__ import annotations

import httpx
import pytest

from leadtui.api.errors import ApiError, Conflict, ServerError
from tests.api.faults import Script, Sleeps, scripted_client

PROXY_HTML = b"<html><body><h1>502 Bad Gateway</h1></body></html>"


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (PROXY_HTML, "an HTML page"),
        (b'{"data": {"credits": 10, "subscr', "truncated JSON"),
        (b'{"data": {"credits": "lots", "subscription": {"status": "active"}}}', "wrong types"),
        (b'{"data": {"subscription": {"status": "active"}}}', "a required field missing"),
        (b"[]", "an array"),
        (b"", "an empty body"),
    ],
)
async def test_unreadable_success_body_is_bad_response(body: bytes, what: str) -> None:
    script = Script([httpx.Response(200, content=body, headers={"X-Request-Id": "req_9"})])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ApiError) as caught:
            await client.me()
    assert caught.value.code == "bad_response", what
    assert caught.value.status == 200
    assert caught.value.request_id == "req_9"
    assert "could not be read" in caught.value.message


@pytest.mark.parametrize(
    "body",
    [
        b'{"data": [{"exportId": "e1", "status": "ready"}, {"status": "ready"}]}',
        b'{"data": "nope", "next_cursor": null}',
        b'{"data": [], "next_cursor": 42}',
        b'{"next_cursor": null}',
        PROXY_HTML,
    ],
)
async def test_unreadable_page_is_bad_response(body: bytes) -> None:
    script = Script([httpx.Response(200, content=body)])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ApiError) as caught:
            await client.exports.list()
    assert caught.value.code == "bad_response"


async def test_error_status_with_proxy_html_keeps_its_status_class() -> None:
    script = Script([httpx.Response(500, content=PROXY_HTML)])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ServerError) as caught:
            await client.me()
    assert caught.value.status == 500
    assert caught.value.code == "bad_response"


async def test_error_object_with_wrong_types_is_bad_response() -> None:
    body = b'{"error": {"code": 409, "message": ["x"], "request_id": null}}'
    script = Script([httpx.Response(409, content=body)])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(Conflict) as caught:
            await client.exports.results("e1")
    assert caught.value.code == "bad_response"
    assert caught.value.status == 409


async def test_bad_body_on_unlock_still_reports_the_key_used() -> None:
    script = Script([httpx.Response(202, content=b"accepted")])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ApiError) as caught:
            await client.exports.create("s1", 3)
    assert caught.value.code == "bad_response"
    assert caught.value.idempotency_key == script.requests[0].headers["Idempotency-Key"]


@pytest.mark.parametrize(
    ("body", "cursor"),
    [
        (b'{"data": [{"searchId": "s1"}], "next_cursor": "c2"}', "c2"),
        (b'{"data": [{"searchId": "s1"}], "meta": {"next_cursor": "c3"}}', "c3"),
        (b'{"data": [{"searchId": "s1"}], "pagination": {"next_cursor": "c4", "x": 1}}', "c4"),
        (b'{"data": [{"searchId": "s1"}], "next_cursor": null}', None),
        (b'{"data": [{"searchId": "s1"}]}', None),
    ],
)
async def test_next_cursor_is_found_where_servers_put_it(body: bytes, cursor: str | None) -> None:
    script = Script([httpx.Response(200, content=body, headers={"Retry-After": "4"})])
    async with scripted_client(script, Sleeps()) as client:
        page = await client.searches.list()
    assert [s.searchId for s in page.items] == ["s1"]
    assert page.next_cursor == cursor
    assert page.poll_after == 4.0


async def test_single_objects_are_read_wrapped_or_bare_keeping_unknown_fields() -> None:
    script = Script(
        [
            httpx.Response(200, json={"data": {"searchId": "s1", "result_count": 7, "x": 1}}),
            httpx.Response(200, json={"searchId": "s2", "result_count": 8, "y": 2}),
        ]
    )
    async with scripted_client(script, Sleeps()) as client:
        wrapped = await client.searches.get("s1")
        bare = await client.searches.get("s2")
    assert (wrapped.searchId, wrapped.result_count, (wrapped.model_extra or {})["x"]) == (
        "s1",
        7,
        1,
    )
    assert (bare.searchId, bare.result_count, (bare.model_extra or {})["y"]) == ("s2", 8, 2)
    assert wrapped.poll_after is None


async def test_a_page_of_a_hundred_leads_is_read_whole() -> None:
    leads = b",".join(
        b'{"id": "l%d", "company": "Bakery %d", "city": "Paris", "tags": ["a"]}' % (i, i)
        for i in range(100)
    )
    script = Script(
        [httpx.Response(200, content=b'{"data": [' + leads + b'], "next_cursor": null}')]
    )
    async with scripted_client(script, Sleeps()) as client:
        page = await client.searches.results("s1", limit=100)
    assert len(page.items) == 100
    assert (page.items[-1].model_extra or {})["company"] == "Bakery 99"
