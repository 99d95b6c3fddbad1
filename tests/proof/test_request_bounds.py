"""Bad input, client side vs server side: for every request model, a body the model accepts
the sandbox accepts, and a body it rejects the sandbox rejects with 400 `invalid_request`.

Bodies are drawn around the spec's bounds (empty, one, the limit, one past it), with wrong
types, nulls, missing and unknown members mixed in. In process (ASGI), so it runs in seconds.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from leadtui.api.contract import LEAD_COLUMNS
from leadtui.api.models import (
    ADDITIONAL_RESULTS_MAX,
    IDEMPOTENCY_KEY_MAX,
    PAGE_LIMIT_MAX,
    SEARCH_ITEM_LOCALISATION_IDS_MAX,
    SEARCH_ITEM_NAME_MAX,
    SEARCH_ITEM_QUERY_NAMES_MAX,
    SEARCH_SECTION_MAX,
    CustomDownloadRequest,
    ExportRequest,
    ExtractionAction,
    ExtractionDraft,
    ExtractionRequest,
    SearchItem,
    SearchRequest,
)
from leadtui.api.resource import ListParams
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from tests.support.idempotency import IdempotencyParams

API = "/api/v1"
AUTH = {"Authorization": "Bearer sk_demo_full"}
# Derandomized: the same draws on every run, so "both verdicts were exercised" cannot flake.
EXAMPLES = settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --- Strategies ---------------------------------------------------------------------------

text = st.text(st.characters(codec="utf-8"), max_size=6)
junk: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(text, st.integers(), max_size=2),
)


def around(*bounds: int) -> st.SearchStrategy[int]:
    """Sizes at and next to each bound (never negative)."""
    sizes = sorted({n for b in bounds for n in (b - 1, b, b + 1) if n >= 0})
    return st.sampled_from(sizes)


def sized(element: st.SearchStrategy[Any], *bounds: int) -> st.SearchStrategy[list[Any]]:
    return around(*bounds).flatmap(lambda n: st.lists(element, min_size=n, max_size=n))


def bounded_text(limit: int) -> st.SearchStrategy[str]:
    return around(0, limit).map(lambda n: "x" * n) | text


@st.composite
def bodies(
    draw: st.DrawFn, fields: dict[str, st.SearchStrategy[Any]], required: frozenset[str]
) -> Any:
    """An object around the model: members valid-ish, sometimes junk, missing or unknown."""
    if draw(st.integers(0, 30)) == 0:
        return draw(junk)  # not an object at all
    body: dict[str, Any] = {}
    for name, strategy in fields.items():
        present = draw(st.integers(0, 20)) > 0 if name in required else draw(st.booleans())
        if present:
            body[name] = draw(junk) if draw(st.integers(0, 9)) == 0 else draw(strategy)
    if draw(st.integers(0, 12)) == 0:
        body[draw(text.filter(lambda k: k not in fields))] = draw(junk)
    return body


strings = st.lists(text, max_size=3)
search_item = bodies(
    {
        "name": bounded_text(SEARCH_ITEM_NAME_MAX),
        "queryNames": sized(st.just("q"), SEARCH_ITEM_QUERY_NAMES_MAX),
        "localisationType": text,
        "localisationIdentifiers": sized(st.just("75056"), SEARCH_ITEM_LOCALISATION_IDS_MAX),
    },
    frozenset({"name"}),
)
VALID_ITEM = {"name": "Bakery"}
section = sized(st.just(VALID_ITEM), 1, SEARCH_SECTION_MAX) | st.lists(search_item, max_size=2)
search_request = bodies(
    {
        "activities": section,
        "countries": section,
        "localisations": section,
        "result_filter": st.dictionaries(text, st.integers(), max_size=2),
    },
    frozenset({"activities", "countries", "localisations"}),
)
export_request = bodies(
    {
        "additional_results": around(1, ADDITIONAL_RESULTS_MAX)
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
    },
    frozenset({"additional_results"}),
)
urls = st.lists(
    st.sampled_from(["https://example.com/a", "http://x.org", "not a url", "", "ftp://h/p"]),
    max_size=2,
)
extraction_fields: dict[str, st.SearchStrategy[Any]] = {
    "categories": strings,
    "countries": strings,
    "localisations": strings,
    "urls": urls,
    "enrichment_sources": strings,
    "serp_config": st.dictionaries(text, st.integers(), max_size=2),
}
extraction_request = bodies(
    extraction_fields,
    frozenset({"categories", "countries", "localisations", "enrichment_sources"}),
)
extraction_draft = bodies(extraction_fields, frozenset())
extraction_action = bodies(
    {"action": st.sampled_from(["pause", "resume", "stop", "PAUSE", ""])}, frozenset({"action"})
)
columns = st.lists(st.sampled_from([*LEAD_COLUMNS[:4], "password", ""]), max_size=3)
custom_download = bodies(
    {"columns": columns, "format": st.sampled_from(["csv", "json", "xml"])},
    frozenset({"columns"}),
)
idempotency_keys = st.one_of(
    around(0, IDEMPOTENCY_KEY_MAX, 2 * IDEMPOTENCY_KEY_MAX).map(lambda n: "k" * n),
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=10),
)
page_limits = around(0, 1, PAGE_LIMIT_MAX, 1000) | st.integers(-(2**40), 2**40)

# --- The oracle ---------------------------------------------------------------------------


def accepts(model: type[BaseModel], body: Any) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


def assert_same_verdict(model_accepts: bool, response: Any, body: Any) -> None:
    if model_accepts:
        assert response.status_code != 400, (body, response.text)
        assert response.status_code < 500, (body, response.text)
    else:
        assert response.status_code == 400, (body, response.status_code, response.text)
        assert response.json()["error"]["code"] == "invalid_request"


def holds_both_ways(strategy: st.SearchStrategy[Any], check: Callable[[Any], bool]) -> None:
    """Run `check` (which asserts and returns the model's verdict) over drawn examples; the
    draws must have exercised both sides, or the property proves little."""
    verdicts: set[bool] = set()

    @EXAMPLES
    @given(value=strategy)
    def run(value: Any) -> None:
        verdicts.add(check(value))

    run()
    assert verdicts == {True, False}


class SyncSandbox:
    """The in-process sandbox behind a blocking facade, so hypothesis drives plain functions."""

    def __init__(self) -> None:
        self._runner = asyncio.Runner()
        transport = httpx.ASGITransport(app=create_app(SandboxConfig(job_seconds=0.3)))
        self._client = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self._runner.run(self._client.request(method, url, **kwargs))

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", url, **kwargs)

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()


@pytest.fixture(scope="module")
def http() -> Iterator[SyncSandbox]:
    sandbox = SyncSandbox()
    # Extraction launches must not run out while valid bodies keep coming.
    sandbox.patch("/_sandbox/accounts/acct_demo", json={"extraction_quota": 100_000})
    try:
        yield sandbox
    finally:
        sandbox.close()


def keyed() -> dict[str, str]:
    return {**AUTH, "Idempotency-Key": str(uuid.uuid4())}


# (model, body strategy, how to send it): ids that do not exist answer 404 once the body is
# valid, because the body is checked first.
Send = Callable[[SyncSandbox, Any], Any]
CASES: list[tuple[type[BaseModel], st.SearchStrategy[Any], Send]] = [
    (SearchRequest, search_request, lambda c, b: c.post(f"{API}/searches", json=b, headers=AUTH)),
    (
        ExportRequest,
        export_request,
        lambda c, b: c.post(f"{API}/searches/srch_none/exports", json=b, headers=keyed()),
    ),
    (
        ExtractionRequest,
        extraction_request,
        lambda c, b: c.post(f"{API}/extractions", json=b, headers=keyed()),
    ),
    (
        ExtractionDraft,
        extraction_draft,
        lambda c, b: c.post(f"{API}/extractions/drafts", json=b, headers=AUTH),
    ),
    (
        ExtractionAction,
        extraction_action,
        lambda c, b: c.patch(f"{API}/extractions/ext_none", json=b, headers=keyed()),
    ),
]


@pytest.mark.parametrize(
    ("model", "strategy", "send"), CASES, ids=[case[0].__name__ for case in CASES]
)
def test_model_and_sandbox_agree_on_every_body(
    http: SyncSandbox, model: type[BaseModel], strategy: st.SearchStrategy[Any], send: Send
) -> None:
    def check(body: Any) -> bool:
        verdict = accepts(model, body)
        assert_same_verdict(verdict, send(http, body), body)
        return verdict

    holds_both_ways(strategy, check)


def test_search_item_bounds_agree(http: SyncSandbox) -> None:
    def check(item: Any) -> bool:
        body = {"activities": [item], "countries": [VALID_ITEM], "localisations": [VALID_ITEM]}
        verdict = accepts(SearchItem, item)
        assert_same_verdict(verdict, http.post(f"{API}/searches", json=body, headers=AUTH), item)
        return verdict

    holds_both_ways(search_item, check)


def test_custom_download_agrees_and_only_authorized_columns_pass(http: SyncSandbox) -> None:
    def check(body: Any) -> bool:
        response = http.post(f"{API}/exports/exp_none/custom-download", json=body, headers=AUTH)
        # Which columns are authorized is the server's knowledge, not the model's.
        valid = accepts(CustomDownloadRequest, body)
        authorized = valid and all(column in LEAD_COLUMNS for column in body["columns"])
        assert_same_verdict(authorized, response, body)
        return authorized

    holds_both_ways(custom_download, check)


def test_idempotency_key_bounds_agree(http: SyncSandbox) -> None:
    def check(key: str) -> bool:
        response = http.post(
            f"{API}/searches/srch_none/exports",
            json={"additional_results": 1},
            headers={**AUTH, "Idempotency-Key": key},
        )
        verdict = accepts(IdempotencyParams, {"idempotency_key": key})
        assert_same_verdict(verdict, response, key)
        return verdict

    holds_both_ways(idempotency_keys, check)


def test_page_limit_bounds_agree(http: SyncSandbox) -> None:
    def check(limit: int) -> bool:
        response = http.get(f"{API}/exports", params={"limit": limit}, headers=AUTH)
        verdict = accepts(ListParams, {"limit": limit})
        assert_same_verdict(verdict, response, limit)
        return verdict

    holds_both_ways(page_limits, check)


def test_missing_idempotency_key_is_rejected_like_an_empty_one(http: SyncSandbox) -> None:
    response = http.post(
        f"{API}/searches/srch_none/exports", json={"additional_results": 1}, headers=AUTH
    )
    assert not accepts(IdempotencyParams, {})
    assert_same_verdict(False, response, None)
