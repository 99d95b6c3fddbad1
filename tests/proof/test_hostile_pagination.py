"""Pagination as a weapon: empty pages that promise more, cursors without end, cursors that
come round again, pages far longer than the limit asked for. Every walk ends, quickly."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Callable

import pytest

from leadtui.api import pagination
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


async def test_an_empty_page_ends_the_walk_whatever_cursor_it_carries() -> None:
    server = HostileServer(pages(lambda seen, n: {"data": [], "next_cursor": f"c{n + 1}"}))
    async with server as url, LeadClient(url, KEY) as client:
        walked = [e async for e in client.exports.iter_all()]
        page = await client.exports.list()
    assert walked == []
    assert server.requests == 2  # one for the walk, one for the single page
    assert page.is_last
    assert page.next_cursor is None  # dropped, for readers that only look at the cursor


async def test_empty_pages_after_real_ones_end_the_walk() -> None:
    def make(seen: Seen, n: int) -> dict[str, object]:
        return {"data": [export(n)] if n < 3 else [], "next_cursor": f"c{n + 1}"}

    server = HostileServer(pages(make))
    async with server as url, LeadClient(url, KEY) as client:
        walked = [e.exportId async for e in client.exports.iter_all()]
    assert walked == ["e0", "e1", "e2"]
    assert server.requests == 4


async def test_a_cursor_that_comes_round_again_ends_the_walk() -> None:
    # c1 -> c2 -> c3 -> c1: a circle of fresh-looking cursors.
    def make(seen: Seen, n: int) -> dict[str, object]:
        return {"data": [export(n)], "next_cursor": f"c{n % 3 + 1}"}

    server = HostileServer(pages(make))
    async with server as url, LeadClient(url, KEY) as client:
        walked = [e.exportId async for e in client.exports.iter_all()]
    assert walked == ["e0", "e1", "e2", "e3"]
    assert [seen.query("cursor") for seen in server.seen] == [None, "c1", "c2", "c3"]


async def test_a_new_cursor_on_every_page_is_cut_off_at_the_walk_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The bound is 10,000 pages; a smaller one shows the same rule without 10,000 requests.
    monkeypatch.setattr(pagination, "MAX_PAGES_PER_WALK", 40)
    server = HostileServer(pages(lambda seen, n: {"data": [export(n)], "next_cursor": f"c{n}"}))
    walked: list[str] = []

    async def walk(client: LeadClient) -> None:
        async for item in client.searches.iter_results("s1"):
            walked.append((item.model_extra or {})["exportId"])

    async with server as url, LeadClient(url, KEY) as client:
        with pytest.raises(ApiError, match="did not end within 40 pages") as caught:
            await walk(client)
    assert caught.value.code == "bad_response"
    assert server.requests == 40
    assert len(walked) == 40  # what was read is yielded before the walk gives up


def test_the_walk_bound_is_generous() -> None:
    assert pagination.MAX_PAGES_PER_WALK * 100 >= 1_000_000


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
