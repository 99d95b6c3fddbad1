"""/usage fed by real traffic, the discovery document, and the OpenAPI 3.1 contract."""

from __future__ import annotations

import httpx

from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth, create_search, unlock


async def test_usage_counts_requests_and_credits_per_day(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    s = await create_search(sandbox_http)
    await unlock(sandbox_http, s["searchId"], 9, "k")
    sandbox_clock.advance(86_400)
    await sandbox_http.get(f"{API}/me", headers=auth())
    usage = (await sandbox_http.get(f"{API}/usage", headers=auth())).json()["data"]
    assert usage["window_days"] == 30
    assert len(usage["daily"]) == 30
    assert usage["daily"][-1]["date"] == "2026-01-02"
    assert usage["daily"][-2] == {"date": "2026-01-01", "requests": 2, "credits_used": 9}
    assert usage["daily"][-1]["requests"] == 2  # /me and this /usage
    assert usage["totals"] == {"requests": 4, "credits_used": 9}
    assert usage["credits"] == 10_000 - 9
    assert usage["access"]["status"] == "active"
    sandbox_clock.advance(30 * 86_400)
    later = (await sandbox_http.get(f"{API}/usage", headers=auth())).json()["data"]
    assert later["totals"] == {"requests": 1, "credits_used": 0}


async def test_discovery_lists_every_operation_and_the_price(
    sandbox_http: httpx.AsyncClient,
) -> None:
    doc = (await sandbox_http.get(f"{API}/")).json()
    assert doc["version"] == "1.0.0"
    assert doc["openapi"] == f"{API}/openapi.json"
    assert doc["pricing"]["price_per_result"] == 1
    assert doc["pricing"]["extraction_launch"]["credits"] == 0
    ops = {(o["method"], o["path"]) for o in doc["operations"]}
    assert len(ops) == 24
    assert ("POST", f"{API}/searches/{{searchId}}/exports") in ops


async def test_openapi_documents_paths_bodies_scopes_errors(
    sandbox_http: httpx.AsyncClient,
) -> None:
    doc = (await sandbox_http.get(f"{API}/openapi.json")).json()
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == "1.0.0"
    operations = [(p, m, o) for p, ms in doc["paths"].items() for m, o in ms.items()]
    assert len(operations) == 24
    schemas = doc["components"]["schemas"]
    assert "Error" in schemas
    assert "SearchRequest" in schemas
    search_item = schemas["SearchItem"]
    assert search_item["additionalProperties"] is False
    assert search_item["properties"]["name"]["maxLength"] == 160
    assert doc["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for path, method, op in operations:
        if path in (f"{API}/", f"{API}/openapi.json"):
            assert op["security"] == []
            continue
        assert op["x-required-scope"] in op["security"][0]["bearerAuth"], (path, method)
        assert "401" in op["responses"]
        assert "403" in op["responses"]
    unlock_op = doc["paths"][f"{API}/searches/{{searchId}}/exports"]["post"]
    params = {p["name"]: p for p in unlock_op["parameters"]}
    assert params["Idempotency-Key"]["required"] is True
    assert params["Idempotency-Key"]["schema"]["maxLength"] == 128
    assert "409" in unlock_op["responses"]
    listing = doc["paths"][f"{API}/exports"]["get"]
    limit = next(p for p in listing["parameters"] if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1
    assert limit["schema"]["maximum"] == 100
    assert limit["schema"]["default"] == 25


async def test_request_log_lists_api_requests(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    await unlock(sandbox_http, s["searchId"], 1, "logged-key")
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert [(e["method"], e["status"]) for e in log] == [("POST", 201), ("POST", 202)]
    assert log[1]["idempotency_key"] == "logged-key"
    assert log[1]["path"] == f"{API}/searches/{s['searchId']}/exports"


async def test_reset_restores_seed_but_never_reuses_ids(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    await unlock(sandbox_http, s["searchId"], 10, "k")
    assert (await sandbox_http.post("/_sandbox/reset")).is_success
    me = (await sandbox_http.get(f"{API}/me", headers=auth())).json()["data"]
    assert me["credits"] == 10_000
    assert (await sandbox_http.get(f"{API}/searches", headers=auth())).json()["data"] == []
    again = await create_search(sandbox_http)
    assert again["searchId"] != s["searchId"]


async def test_discovery_names_the_sandboxs_levers_and_the_faults_it_injects(
    sandbox_http: httpx.AsyncClient,
) -> None:
    from leadtui.sandbox.openapi.records import Discovery

    doc = (await sandbox_http.get(f"{API}/")).json()
    Discovery.model_validate(doc)  # as its OpenAPI document describes it
    area = doc["sandbox"]
    assert area["control"] == "/_sandbox"
    levers = {(lever["method"], lever["path"]) for lever in area["levers"]}
    assert ("PATCH", "/_sandbox/accounts/{account_id}") in levers
    assert ("POST", "/_sandbox/exports/{export_id}/fail") in levers
    assert all(lever["summary"] for lever in area["levers"])
    faults = area["faults"]
    assert (faults["fault_rate"], faults["latency_ms"], faults["job_seconds"]) == (0.0, 0, 0.3)
    assert "--fault-rate" in faults["how"]
    assert "--latency-ms" in faults["how"]
