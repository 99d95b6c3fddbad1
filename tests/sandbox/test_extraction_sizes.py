"""Extraction bodies have bounded sizes, and a list's page is bounded in bytes, so that
`GET /extractions` never answers more than a client reads (the spec shows no size limits)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from leadtui.api.models import (
    EXTRACTION_LIST_MAX,
    EXTRACTION_URL_MAX,
    EXTRACTION_VALUE_MAX,
    SERP_CONFIG_MAX_BYTES,
)
from leadtui.sandbox.pagination import PAGE_BYTES_MAX, fitting
from tests.sandbox.helpers import API, auth, error_code
from tests.support.pages import every

LARGEST: dict[str, Any] = {
    "categories": [
        f"{i:03}" + "c" * (EXTRACTION_VALUE_MAX - 3) for i in range(EXTRACTION_LIST_MAX)
    ],
    "countries": ["FR"],
    "urls": [
        f"https://example.com/{i:03}" + "u" * (EXTRACTION_URL_MAX - 23)
        for i in range(EXTRACTION_LIST_MAX)
    ],
    "serp_config": {"q": "s" * (SERP_CONFIG_MAX_BYTES - 10)},
}


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("categories", ["c" * 2_000_000]),
        ("categories", ["c" * (EXTRACTION_VALUE_MAX + 1)]),
        ("localisations", ["Paris"] * (EXTRACTION_LIST_MAX + 1)),
        ("urls", ["https://example.com/" + "u" * EXTRACTION_URL_MAX]),
        ("serp_config", {"q": "s" * SERP_CONFIG_MAX_BYTES}),
    ],
    ids=["2-mb-value", "long-value", "long-list", "long-url", "large-serp-config"],
)
async def test_a_draft_member_past_its_size_is_refused_and_nothing_stored(
    sandbox_http: httpx.AsyncClient, member: str, value: Any
) -> None:
    answer = await sandbox_http.post(
        f"{API}/extractions/drafts", headers=auth(), json={member: value}
    )
    assert answer.status_code == 400
    assert error_code(answer) == "invalid_request"
    assert member in answer.json()["error"]["message"]
    listed = await sandbox_http.get(f"{API}/extractions", headers=auth())
    assert listed.json()["data"] == []


async def test_the_largest_drafts_are_listed_in_pages_bounded_in_bytes(
    sandbox_http: httpx.AsyncClient,
) -> None:
    made = []
    for _ in range(6):
        answer = await sandbox_http.post(f"{API}/extractions/drafts", headers=auth(), json=LARGEST)
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["data"]["extractionId"])
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params = {"limit": "100", **({"cursor": cursor} if cursor else {})}
        answer = await sandbox_http.get(f"{API}/extractions", headers=auth(), params=params)
        body = answer.json()
        largest = max(len(json.dumps(r).encode()) for r in body["data"])
        assert len(answer.content) <= PAGE_BYTES_MAX + largest + 1_000
        seen += [record["extractionId"] for record in body["data"]]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert pages > 1  # fewer than `limit` with a cursor: more follow
    assert sorted(seen) == sorted(made)


def test_a_page_holds_what_fits_and_always_one() -> None:
    records = [{"v": "x" * 100}] * 5
    size = len(json.dumps(records[0], separators=(",", ":")))
    assert fitting(records, budget=size * 2) == 2
    assert fitting(records, budget=1) == 1
    assert fitting(records, budget=size * 10) == 5


async def test_the_client_walks_the_largest_drafts_and_refuses_an_oversized_one_locally(
    client: Any,
) -> None:
    from pydantic import ValidationError

    for _ in range(3):
        await client.extractions.create_draft(LARGEST)
    listed = [e.extractionId for e in await every(lambda c: client.extractions.list(c, 100))]
    assert len(listed) == 3
    with pytest.raises(ValidationError, match="categories"):
        await client.extractions.create_draft({"categories": ["c" * 2_000_000]})
