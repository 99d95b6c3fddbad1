"""Every bound of the spec's Limits table: accepted at the limit, refused one past it,
with a message naming the field, before anything is sent."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from leadtui.api.client import LeadClient
from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.models import ExportRequest, SearchItem, SearchRequest
from leadtui.api.resource import ListParams
from tests.support.idempotency import IdempotencyParams


def item(**overrides: Any) -> dict[str, Any]:
    return {"name": "bakery", **overrides}


def search(**sections: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "activities": [item()],
        "countries": [item()],
        "localisations": [item()],
    }
    body.update(sections)
    return body


def refused(call: Any, field: str) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    assert field in str(caught.value)
    return caught.value


@pytest.mark.parametrize("limit", [1, 100])
def test_page_limit_at_its_bounds_is_accepted(limit: int) -> None:
    assert ListParams(limit=limit).to_body() == {"limit": limit}


@pytest.mark.parametrize("limit", [0, 101])
def test_page_limit_past_its_bounds_is_refused(limit: int) -> None:
    refused(lambda: ListParams(limit=limit), "limit")


@pytest.mark.parametrize("n", [1, 50_000])
def test_additional_results_at_its_bounds_is_accepted(n: int) -> None:
    assert ExportRequest(additional_results=n).to_body() == {"additional_results": n}


@pytest.mark.parametrize("n", [0, 50_001])
def test_additional_results_past_its_bounds_is_refused(n: int) -> None:
    refused(lambda: ExportRequest(additional_results=n), "additional_results")


@pytest.mark.parametrize("length", [1, 128])
def test_idempotency_key_length_at_its_bounds_is_accepted(length: int) -> None:
    assert IdempotencyParams(idempotency_key="k" * length).idempotency_key == "k" * length


@pytest.mark.parametrize("length", [0, 129])
def test_idempotency_key_length_past_its_bounds_is_refused(length: int) -> None:
    refused(lambda: IdempotencyParams(idempotency_key="k" * length), "idempotency_key")


@pytest.mark.parametrize("section", ["activities", "countries", "localisations"])
@pytest.mark.parametrize("count", [1, 100])
def test_search_sections_at_their_bounds_are_accepted(section: str, count: int) -> None:
    request = SearchRequest.model_validate(search(**{section: [item()] * count}))
    assert len(request.to_body()[section]) == count


@pytest.mark.parametrize("section", ["activities", "countries", "localisations"])
@pytest.mark.parametrize("count", [0, 101])
def test_search_sections_past_their_bounds_are_refused(section: str, count: int) -> None:
    refused(lambda: SearchRequest.model_validate(search(**{section: [item()] * count})), section)


@pytest.mark.parametrize(
    ("field", "at_limit", "past_limit"),
    [
        ("name", "n" * 160, "n" * 161),
        ("queryNames", ["q"] * 30, ["q"] * 31),
        ("localisationIdentifiers", ["75056"] * 200, ["75056"] * 201),
    ],
)
def test_search_item_bounds(field: str, at_limit: Any, past_limit: Any) -> None:
    assert SearchItem.model_validate(item(**{field: at_limit})).to_body()[field] == at_limit
    error = refused(lambda: SearchItem.model_validate(item(**{field: past_limit})), field)
    # Inside a request the message says where: section, index, field.
    nested = refused(
        lambda: SearchRequest.model_validate(search(countries=[item(**{field: past_limit})])),
        f"countries.0.{field}",
    )
    assert error.error_count() == nested.error_count() == 1


def test_search_items_and_requests_refuse_unknown_members_and_nulls() -> None:
    refused(lambda: SearchItem.model_validate(item(colour="red")), "colour")
    refused(lambda: SearchRequest.model_validate(search(sort="name")), "sort")
    refused(lambda: SearchRequest.model_validate(search(result_filter=None)), "result_filter")


def test_extraction_urls_must_be_uris() -> None:
    from leadtui.api.models import ExtractionRequest

    base = {"categories": ["c"], "countries": ["FR"], "localisations": ["Paris"]}
    ok = ExtractionRequest.model_validate(
        {**base, "enrichment_sources": ["web"], "urls": ["https://example.com/a"]}
    )
    assert ok.to_body()["urls"] == ["https://example.com/a"]
    refused(
        lambda: ExtractionRequest.model_validate(
            {**base, "enrichment_sources": ["web"], "urls": ["not a uri"]}
        ),
        "urls",
    )
    refused(lambda: ExtractionRequest.model_validate(base), "enrichment_sources")


def _nothing_may_be_sent(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent although its input was invalid: {request.url}")


@pytest.fixture
async def offline_client() -> Any:
    async with LeadClient(
        "https://api.example.com",
        "sk_test_key_123456",
        transport=httpx.MockTransport(_nothing_may_be_sent),
    ) as client:
        yield client


@pytest.mark.parametrize("limit", [0, 101])
async def test_client_checks_limit_before_sending(offline_client: LeadClient, limit: int) -> None:
    with pytest.raises(ValidationError, match="limit"):
        await offline_client.searches.list(limit=limit)
    with pytest.raises(ValidationError, match="limit"):
        await offline_client.exports.results("e1", limit=limit)
    with pytest.raises(ValidationError, match="limit"):
        await offline_client.extractions.list(limit=limit)
    with pytest.raises(ValidationError, match="limit"):
        await offline_client.searches.results("s1", limit=limit)


@pytest.mark.parametrize("key", ["", "k" * 129])
async def test_client_checks_idempotency_keys_before_sending(
    offline_client: LeadClient, key: str
) -> None:
    with pytest.raises(InvalidIdempotencyKey, match="the idempotency key"):
        await offline_client.exports.create("s1", 1, idempotency_key=key)
    with pytest.raises(InvalidIdempotencyKey, match="the idempotency key"):
        await offline_client.extractions.stop("x1", idempotency_key=key)


@pytest.mark.parametrize("n", [0, 50_001])
async def test_client_checks_additional_results_before_sending(
    offline_client: LeadClient, n: int
) -> None:
    with pytest.raises(ValidationError, match="additional_results"):
        await offline_client.exports.create("s1", n)


async def test_client_checks_search_requests_before_sending(offline_client: LeadClient) -> None:
    with pytest.raises(ValidationError, match=r"activities\.0\.name"):
        await offline_client.searches.create(search(activities=[item(name="n" * 161)]))
