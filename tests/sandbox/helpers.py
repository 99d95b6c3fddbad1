"""Small request helpers for sandbox tests (raw HTTP: the sandbox is held to the spec)."""

from __future__ import annotations

from typing import Any

import httpx

API = "/api/v1"


def auth(key: str = "sk_demo_full", **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **extra}


def search_body(
    activity: str = "Bakery", country: str = "France", place: str = "Paris", **extra: Any
) -> dict[str, Any]:
    return {
        "activities": [{"name": activity}],
        "countries": [{"name": country}],
        "localisations": [{"name": place}],
        **extra,
    }


async def create_search(
    http: httpx.AsyncClient, key: str = "sk_demo_full", **body: Any
) -> dict[str, Any]:
    r = await http.post(f"{API}/searches", headers=auth(key), json=search_body(**body))
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()["data"]
    return data


async def unlock(
    http: httpx.AsyncClient, search_id: str, n: int, ik: str, key: str = "sk_demo_full"
) -> httpx.Response:
    return await http.post(
        f"{API}/searches/{search_id}/exports",
        headers=auth(key, **{"Idempotency-Key": ik}),
        json={"additional_results": n},
    )


async def credits(http: httpx.AsyncClient, key: str = "sk_demo_full") -> int:
    r = await http.get(f"{API}/me", headers=auth(key))
    return int(r.json()["data"]["credits"])


def error_code(r: httpx.Response) -> str:
    body = r.json()
    assert set(body["error"]) == {"code", "message", "request_id"}
    assert body["error"]["request_id"] == r.headers["X-Request-Id"]
    code: str = body["error"]["code"]
    return code
