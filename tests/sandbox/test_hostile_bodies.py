"""Bodies a careless or hostile client may send: not UTF-8, lone surrogates, deep nesting,
repeated members, NaN, integral floats. Each is answered 400 `invalid_request` (or, for an
integral number, accepted) before anything is stored, so nothing stored can break a read."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from leadtui.api.contract import JSON_NESTING_MAX
from tests.sandbox.helpers import API, auth, create_search, credits, error_code, unlock

JSON = {"Content-Type": "application/json"}


async def _ids(http: httpx.AsyncClient) -> dict[str, str]:
    """A search, a ready export and a draft, for the operations that need one."""
    search = await create_search(http)
    r = await http.post(
        f"{API}/searches/{search['searchId']}/exports",
        headers=auth(**{"Idempotency-Key": "setup"}),
        json={"additional_results": 1},
    )
    draft = await http.post(f"{API}/extractions/drafts", headers=auth(), json={})
    return {
        "search": search["searchId"],
        "export": r.json()["data"]["exportId"],
        "draft": draft.json()["data"]["extractionId"],
    }


def body_operations(ids: dict[str, str]) -> list[tuple[str, str, dict[str, str]]]:
    """The seven operations that take a JSON body, with the headers each needs."""
    key = {"Idempotency-Key": "hostile"}
    return [
        ("POST", f"{API}/searches", {}),
        ("POST", f"{API}/searches/{ids['search']}/exports", key),
        ("POST", f"{API}/exports/{ids['export']}/custom-download", {}),
        ("POST", f"{API}/extractions/drafts", {}),
        ("POST", f"{API}/extractions", key),
        ("PATCH", f"{API}/extractions/{ids['draft']}/draft", {}),
        ("PATCH", f"{API}/extractions/{ids['draft']}", key),
    ]


async def _send(
    http: httpx.AsyncClient, method: str, path: str, headers: dict[str, str], body: bytes
) -> httpx.Response:
    return await http.request(method, path, headers=auth(**headers, **JSON), content=body)


async def _refused(
    http: httpx.AsyncClient, method: str, path: str, headers: dict[str, str], body: bytes
) -> str:
    """The message of the 400 `invalid_request` the body gets."""
    r = await _send(http, method, path, headers, body)
    assert r.status_code == 400, (method, path, r.text)
    assert error_code(r) == "invalid_request"
    message: str = r.json()["error"]["message"]
    return message


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"\xff", "UTF-8"),
        (b'{"name": "caf\xe9"}', "UTF-8"),
        (b'{"a": 1, "a": 2}', "more than once"),
        (b'{"a": NaN}', "NaN"),
        (b'{"a": -Infinity}', "Infinity"),
        (b'{"a": 1e999}', "out of range"),
        (b'{"a": "\\ud800"}', "surrogate"),
        (b'{"\\udfff": 1}', "surrogate"),
        (b"[" * 40 + b"]" * 40, "deeper"),
    ],
)
async def test_every_body_operation_refuses_a_malformed_body(
    sandbox_http: httpx.AsyncClient, body: bytes, says: str
) -> None:
    ids = await _ids(sandbox_http)
    before = await credits(sandbox_http)
    for method, path, headers in body_operations(ids):
        assert says in await _refused(sandbox_http, method, path, headers, body)
    assert await credits(sandbox_http) == before


async def test_a_lone_surrogate_in_serp_config_is_refused_and_lists_keep_working(
    sandbox_http: httpx.AsyncClient,
) -> None:
    body = b'{"categories": ["Florists"], "serp_config": {"engine": "\\ud800"}}'
    await _refused(sandbox_http, "POST", f"{API}/extractions/drafts", {}, body)
    listing = await sandbox_http.get(f"{API}/extractions", headers=auth())
    assert listing.status_code == 200
    assert listing.json()["data"] == []


async def test_a_lone_surrogate_in_custom_download_columns_is_refused(
    sandbox_http: httpx.AsyncClient,
) -> None:
    ids = await _ids(sandbox_http)
    path = f"{API}/exports/{ids['export']}/custom-download"
    body = b'{"columns": ["company", "\\udc80"]}'
    assert "surrogate" in await _refused(sandbox_http, "POST", path, {}, body)


def _nested(depth: int) -> bytes:
    """A search whose result_filter makes the whole body `depth` levels deep."""
    inner = '{"k":' * (depth - 1) + "1" + "}" * (depth - 1)
    return (
        '{"activities":[{"name":"a"}],"countries":[{"name":"b"}],'
        f'"localisations":[{{"name":"c"}}],"result_filter":{inner}}}'
    ).encode()


@pytest.mark.parametrize("depth", [JSON_NESTING_MAX + 1, 300, 900, 1_200, 100_000])
async def test_nesting_past_the_bound_is_invalid_request(
    sandbox_http: httpx.AsyncClient, depth: int
) -> None:
    message = await _refused(sandbox_http, "POST", f"{API}/searches", {}, _nested(depth))
    assert f"deeper than {JSON_NESTING_MAX} levels" in message


async def test_nesting_at_the_bound_is_accepted(sandbox_http: httpx.AsyncClient) -> None:
    r = await _send(sandbox_http, "POST", f"{API}/searches", {}, _nested(JSON_NESTING_MAX))
    assert r.status_code == 201, r.text


async def test_a_repeated_member_is_refused_and_charges_nothing(
    sandbox_http: httpx.AsyncClient,
) -> None:
    search = await create_search(sandbox_http)
    message = await _refused(
        sandbox_http,
        "POST",
        f"{API}/searches/{search['searchId']}/exports",
        {"Idempotency-Key": "twice"},
        b'{"additional_results": 1, "additional_results": 2}',
    )
    assert "'additional_results' appears more than once" in message
    assert await credits(sandbox_http) == 10_000


@pytest.mark.parametrize("five", ["5", "5.0", "5e0", "0.5E1"])
async def test_an_integral_number_is_an_integer(sandbox_http: httpx.AsyncClient, five: str) -> None:
    search = await create_search(sandbox_http)
    path = f"{API}/searches/{search['searchId']}/exports"
    body = b'{"additional_results": ' + five.encode() + b"}"
    r = await _send(sandbox_http, "POST", path, {"Idempotency-Key": "integral"}, body)
    assert r.status_code == 202, r.text
    assert r.json()["data"]["additional_results"] == 5
    # The same request as the integer 5: a replay, not a second debit.
    replay = await unlock(sandbox_http, search["searchId"], 5, "integral")
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert await credits(sandbox_http) == 10_000 - 5


@pytest.mark.parametrize("count", [5.5, "5", True, 0.0, 50_001.0, None])
async def test_other_numbers_stay_refused(sandbox_http: httpx.AsyncClient, count: Any) -> None:
    search = await create_search(sandbox_http)
    path = f"{API}/searches/{search['searchId']}/exports"
    body = json.dumps({"additional_results": count}).encode()
    assert "additional_results" in await _refused(
        sandbox_http, "POST", path, {"Idempotency-Key": "not-integral"}, body
    )
    assert await credits(sandbox_http) == 10_000
