"""Searches, the Limits table and pagination rules (400 invalid_request naming the field)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.sandbox.helpers import API, auth, create_search, error_code, search_body, unlock


def _item(**kw: Any) -> dict[str, Any]:
    return {"name": "x", **kw}


def _body_with(section: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    body = search_body()
    body[section] = items
    return body


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_body_with("activities", []), "activities"),
        (_body_with("countries", [_item()] * 101), "countries"),
        (_body_with("localisations", []), "localisations"),
        (_body_with("activities", [_item(name="n" * 161)]), "activities.0.name"),
        (_body_with("activities", [_item(queryNames=["q"] * 31)]), "activities.0.queryNames"),
        (
            _body_with("localisations", [_item(localisationIdentifiers=["i"] * 201)]),
            "localisations.0.localisationIdentifiers",
        ),
        (_body_with("activities", [_item(colour="red")]), "activities.0.colour"),
        ({**search_body(), "extra": 1}, "extra"),
        ({"countries": [_item()], "localisations": [_item()]}, "activities"),
    ],
)
async def test_search_bounds_are_400_naming_the_field(
    sandbox_http: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    r = await sandbox_http.post(f"{API}/searches", headers=auth(), json=body)
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"
    assert r.json()["error"]["message"].startswith(field)


async def test_search_at_the_bounds_is_accepted(sandbox_http: httpx.AsyncClient) -> None:
    item = _item(name="n" * 160, queryNames=["q"] * 30, localisationIdentifiers=["i"] * 200)
    body = {"activities": [item] * 100, "countries": [item], "localisations": [item]}
    r = await sandbox_http.post(f"{API}/searches", headers=auth(), json=body)
    assert r.status_code == 201


async def test_malformed_json_is_400(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post(
        f"{API}/searches",
        headers={**auth(), "Content-Type": "application/json"},
        content=b'{"activities": [',
    )
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"
    assert "JSON" in r.json()["error"]["message"]


async def test_same_search_same_count(sandbox_http: httpx.AsyncClient) -> None:
    a = await create_search(sandbox_http)
    b = await create_search(sandbox_http)
    c = await create_search(sandbox_http, activity="Plumber", place="Lyon")
    assert a["result_count"] == b["result_count"] > 0
    assert a["searchId"] != b["searchId"]
    assert c["result_count"] != a["result_count"]
    assert a["price_per_result"] == 1
    assert a["unlocked_count"] == 0


async def test_get_search_and_404(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    r = await sandbox_http.get(f"{API}/searches/{s['searchId']}", headers=auth())
    assert r.status_code == 200
    assert r.json()["data"]["result_count"] == s["result_count"]
    r = await sandbox_http.get(f"{API}/searches/srch_999999", headers=auth())
    assert r.status_code == 404
    assert error_code(r) == "not_found"


async def test_results_hold_only_unlocked_leads(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    url = f"{API}/searches/{s['searchId']}/results"
    assert (await sandbox_http.get(url, headers=auth())).json() == {"data": [], "next_cursor": None}
    assert (await unlock(sandbox_http, s["searchId"], 30, "k1")).status_code == 202
    first = (await sandbox_http.get(url, headers=auth())).json()
    assert len(first["data"]) == 25
    assert first["next_cursor"]
    second = (
        await sandbox_http.get(url, headers=auth(), params={"cursor": first["next_cursor"]})
    ).json()
    assert len(second["data"]) == 5
    assert second["next_cursor"] is None
    lead = first["data"][0]
    for name in (
        "company",
        "activity",
        "address",
        "postal_code",
        "city",
        "country",
        "phone",
        "email",
        "website",
        "rating",
    ):
        assert lead[name] not in (None, "")
    assert lead["activity"] == "Bakery"
    assert lead["city"] == "Paris"
    again = (await sandbox_http.get(url, headers=auth())).json()
    assert again["data"] == first["data"]  # deterministic


@pytest.mark.parametrize("limit", ["0", "101", "-1", "ten", "1.5"])
async def test_bad_limit_is_400(sandbox_http: httpx.AsyncClient, limit: str) -> None:
    r = await sandbox_http.get(f"{API}/searches", headers=auth(), params={"limit": limit})
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"
    assert "limit" in r.json()["error"]["message"]


@pytest.mark.parametrize("limit", [1, 100])
async def test_limit_bounds_accepted(sandbox_http: httpx.AsyncClient, limit: int) -> None:
    r = await sandbox_http.get(f"{API}/searches", headers=auth(), params={"limit": limit})
    assert r.status_code == 200


async def test_default_limit_is_25(sandbox_http: httpx.AsyncClient) -> None:
    for _ in range(27):
        await create_search(sandbox_http)
    r = await sandbox_http.get(f"{API}/searches", headers=auth())
    assert len(r.json()["data"]) == 25
    assert r.json()["next_cursor"]


async def test_tampered_or_foreign_cursor_is_400(sandbox_http: httpx.AsyncClient) -> None:
    for _ in range(3):
        await create_search(sandbox_http)
    r = await sandbox_http.get(f"{API}/searches", headers=auth(), params={"limit": 1})
    cursor = r.json()["next_cursor"]
    token, sig = cursor.rsplit(".", 1)
    for bad in (cursor[:-1] + ("0" if cursor[-1] != "0" else "1"), "garbage", f"x{token}.{sig}"):
        r = await sandbox_http.get(f"{API}/searches", headers=auth(), params={"cursor": bad})
        assert r.status_code == 400
        assert error_code(r) == "invalid_request"
        assert "cursor" in r.json()["error"]["message"]
    r = await sandbox_http.get(f"{API}/exports", headers=auth(), params={"cursor": cursor})
    assert r.status_code == 400


async def test_cursor_walk_never_repeats_or_skips_while_items_are_created(
    sandbox_http: httpx.AsyncClient,
) -> None:
    existing = {(await create_search(sandbox_http))["searchId"] for _ in range(12)}
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 5}
        if cursor:
            params["cursor"] = cursor
        body = (await sandbox_http.get(f"{API}/searches", headers=auth(), params=params)).json()
        seen += [item["searchId"] for item in body["data"]]
        await create_search(sandbox_http)  # a newcomer arrives mid-walk
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen))
    assert set(seen) == existing


async def test_unknown_route_is_error_body(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.get(f"{API}/nothing-here", headers=auth())
    assert r.status_code == 404
    assert error_code(r) == "not_found"
