"""Pagination as a weapon: empty pages that promise more, pages far longer than the limit
asked for, cursors too long to send back. Each is read as the end or refused, quickly."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Callable

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError
from leadtui.api.models import Export, Page
from tests.api.hostile import KEY, HostileServer, Seen, json_response, raw_response


def export(n: int) -> dict[str, str]:
    return {"exportId": f"e{n}", "status": "ready"}


def pages(make: Callable[[Seen, int], dict[str, object]]) -> Callable[[Seen], bytes]:
    """Answer the n-th request (from 0) with `make(request, n)` as JSON."""
    counter = itertools.count()
    return lambda seen: json_response(make(seen, next(counter)))


async def test_an_empty_page_is_the_last_whatever_cursor_it_carries() -> None:
    server = HostileServer(pages(lambda seen, n: {"data": [], "next_cursor": f"c{n + 1}"}))
    async with server as url, LeadClient(url, KEY) as client:
        page = await client.exports.list()
    assert page.is_last
    assert page.next_cursor is None  # dropped, for readers that only look at the cursor
    assert page.dropped_cursor == "c1"


@pytest.mark.parametrize(("limit", "sent"), [(25, 26), (1, 2), (None, 101)])
async def test_a_page_longer_than_the_limit_asked_for_is_a_bad_response(
    limit: int | None, sent: int
) -> None:
    server = HostileServer(pages(lambda seen, n: {"data": [export(i) for i in range(sent)]}))
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            await client.exports.list(limit=limit)
        with pytest.raises(ApiError):
            await client.extractions.results("x1", limit=limit)
    assert caught.value.code == "bad_response"
    assert str(sent) in caught.value.message


@pytest.mark.parametrize("limit", [1, 25, 100])
async def test_a_page_of_exactly_the_limit_is_read(limit: int) -> None:
    server = HostileServer(pages(lambda seen, n: {"data": [export(i) for i in range(limit)]}))
    async with server as url, LeadClient(url, KEY) as client:
        page = await client.exports.list(limit=limit)
    assert len(page.items) == limit


async def test_a_million_item_page_costs_neither_the_records_nor_the_time() -> None:
    body = b'{"data": [' + b",".join([b"{}"] * 1_000_000) + b'], "next_cursor": null}'
    server = HostileServer(lambda seen: raw_response(200, body))
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        tracemalloc.start()
        try:
            with pytest.raises(ApiError) as caught:
                await client.searches.results("s1", limit=25)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert caught.value.code == "bad_response"
    # A million Lead records took 571 MB; the refusal stays within a few times the body.
    assert peak < 40 * len(body)


@pytest.mark.parametrize(
    ("items", "cursor", "last"),
    [([], None, True), ([], "c2", True), ([export(1)], None, True), ([export(1)], "c2", False)],
)
def test_is_last_is_the_one_rule_for_the_end_of_a_list(
    items: list[dict[str, str]], cursor: str | None, last: bool
) -> None:
    page = Page[Export](items=[Export.model_validate(i) for i in items], next_cursor=cursor)
    assert page.is_last is last


async def test_a_cursor_too_long_to_send_back_is_a_bad_response() -> None:
    server = HostileServer(pages(lambda seen, n: {"data": [export(n)], "next_cursor": "c" * 5000}))
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            await client.exports.list()
    assert caught.value.code == "bad_response"
    assert "next_cursor" in caught.value.message
