"""Put jobs in the sandbox for the jobs-screen tests: exports and extractions in given states."""

from __future__ import annotations

from typing import Any

import httpx

from leadtui.api.client import LeadClient
from leadtui.api.models import Export, Extraction

SEARCH = {
    "activities": [{"name": "Plumber"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Lyon"],
    "enrichment_sources": ["website"],
}


async def new_search(client: LeadClient) -> str:
    return (await client.searches.create(SEARCH)).searchId


async def exports(client: LeadClient, count: int, size: int = 3) -> list[Export]:
    """`count` exports of `size` results each (1 credit per result)."""
    search_id = await new_search(client)
    return [await client.exports.create(search_id, size) for _ in range(count)]


async def extraction(client: LeadClient, **changes: Any) -> Extraction:
    return await client.extractions.create({**EXTRACTION, **changes})


async def requests_log(sandbox_http: httpx.AsyncClient) -> list[dict[str, Any]]:
    response = await sandbox_http.get("/_sandbox/requests")
    data: list[dict[str, Any]] = response.json()["data"]
    return data


async def fail_export(sandbox_http: httpx.AsyncClient, export_id: str) -> None:
    response = await sandbox_http.post(f"/_sandbox/exports/{export_id}/fail")
    assert response.status_code == 200, response.text


async def fail_extraction(sandbox_http: httpx.AsyncClient, extraction_id: str) -> None:
    response = await sandbox_http.post(f"/_sandbox/extractions/{extraction_id}/fail")
    assert response.status_code == 200, response.text


async def set_quota(sandbox_http: httpx.AsyncClient, launches: int) -> None:
    response = await sandbox_http.patch(
        "/_sandbox/accounts/acct_demo", json={"extraction_quota": launches}
    )
    assert response.status_code == 200, response.text
