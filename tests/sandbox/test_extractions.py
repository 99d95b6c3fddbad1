"""Extractions: free drafts, quota-limited create/launch, pause/resume/stop, live results."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth, credits, error_code

REQUEST = {
    "categories": ["Bakery"],
    "countries": ["France"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


async def _create(http: httpx.AsyncClient, ik: str, key: str = "sk_demo_full") -> httpx.Response:
    return await http.post(
        f"{API}/extractions", headers=auth(key, **{"Idempotency-Key": ik}), json=REQUEST
    )


async def _me(http: httpx.AsyncClient, key: str = "sk_demo_full") -> dict[str, Any]:
    data: dict[str, Any] = (await http.get(f"{API}/me", headers=auth(key))).json()["data"]
    return data


async def test_draft_costs_nothing_and_is_editable(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post(
        f"{API}/extractions/drafts", headers=auth(), json={"categories": ["Cafe"]}
    )
    assert r.status_code == 201
    draft = r.json()["data"]
    assert draft["status"] == "draft"
    assert draft["editable"] is True
    assert (await _me(sandbox_http))["extraction_launches"]["used"] == 0
    url = f"{API}/extractions/{draft['extractionId']}"
    r = await sandbox_http.patch(f"{url}/draft", headers=auth(), json={"countries": ["Spain"]})
    assert r.status_code == 200
    assert r.json()["data"]["categories"] == ["Cafe"]
    assert r.json()["data"]["countries"] == ["Spain"]


async def test_launch_incomplete_draft_is_400(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post(f"{API}/extractions/drafts", headers=auth(), json={})
    url = f"{API}/extractions/{r.json()['data']['extractionId']}"
    r = await sandbox_http.post(f"{url}/launch", headers=auth(**{"Idempotency-Key": "l"}))
    assert r.status_code == 400
    assert "categories" in r.json()["error"]["message"]


async def test_launch_consumes_one_launch_replay_safe(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post(f"{API}/extractions/drafts", headers=auth(), json=REQUEST)
    url = f"{API}/extractions/{r.json()['data']['extractionId']}"
    first = await sandbox_http.post(f"{url}/launch", headers=auth(**{"Idempotency-Key": "l"}))
    again = await sandbox_http.post(f"{url}/launch", headers=auth(**{"Idempotency-Key": "l"}))
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["data"]["status"] == "queued"
    assert (await _me(sandbox_http))["extraction_launches"]["used"] == 1
    assert await credits(sandbox_http) == 10_000
    r = await sandbox_http.patch(f"{url}/draft", headers=auth(), json={"countries": ["Spain"]})
    assert r.status_code == 409
    assert error_code(r) == "draft_not_editable"
    r = await sandbox_http.post(f"{url}/launch", headers=auth(**{"Idempotency-Key": "l2"}))
    assert r.status_code == 409
    assert error_code(r) == "invalid_transition"


async def test_create_is_replay_safe_and_quota_limited(sandbox_http: httpx.AsyncClient) -> None:
    first = await _create(sandbox_http, "c1", "sk_demo_low")
    again = await _create(sandbox_http, "c1", "sk_demo_low")
    assert first.status_code == again.status_code == 201
    assert first.json()["data"]["extractionId"] == again.json()["data"]["extractionId"]
    r = await _create(sandbox_http, "c2", "sk_demo_low")  # Lowball Ltd has 1 launch
    assert r.status_code == 409
    assert error_code(r) == "extraction_unavailable"
    listed = await sandbox_http.get(f"{API}/extractions", headers=auth("sk_demo_low"))
    assert len(listed.json()["data"]) == 1


async def test_create_needs_idempotency_key_and_valid_body(
    sandbox_http: httpx.AsyncClient,
) -> None:
    r = await sandbox_http.post(f"{API}/extractions", headers=auth(), json=REQUEST)
    assert r.status_code == 400
    assert "Idempotency-Key" in r.json()["error"]["message"]
    r = await sandbox_http.post(
        f"{API}/extractions",
        headers=auth(**{"Idempotency-Key": "k"}),
        json={**REQUEST, "urls": ["not a uri"]},
    )
    assert r.status_code == 400
    assert r.json()["error"]["message"].startswith("urls.0")


async def test_lifecycle_pause_resume_stop_and_results(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    ext = (await _create(sandbox_http, "c")).json()["data"]
    url = f"{API}/extractions/{ext['extractionId']}"
    sandbox_clock.advance(0.3)
    running = (await sandbox_http.get(url, headers=auth())).json()["data"]
    assert running["status"] == "running"
    assert running["results_state"] == "live"
    results = (await sandbox_http.get(f"{url}/results", headers=auth())).json()
    assert results["results_state"] == "live"
    early = running["result_count"]

    async def act(body: dict[str, str], ik: str) -> httpx.Response:
        return await sandbox_http.patch(url, headers=auth(**{"Idempotency-Key": ik}), json=body)

    r = await act({"action": "pause"}, "p1")
    assert r.status_code == 200
    assert r.json()["data"]["status"] == "paused"
    sandbox_clock.advance(5)
    paused = (await sandbox_http.get(url, headers=auth())).json()["data"]
    assert paused["status"] == "paused"
    assert paused["result_count"] == early
    assert (await act({"action": "pause"}, "p2")).status_code == 409
    r = await act({"action": "resume"}, "r1")
    assert r.status_code == 200
    assert r.json()["data"]["status"] == "running"
    sandbox_clock.advance(0.2)
    grown = (await sandbox_http.get(url, headers=auth())).json()["data"]
    assert grown["result_count"] > early
    r = await sandbox_http.post(f"{url}/stop", headers=auth(**{"Idempotency-Key": "s1"}))
    assert r.status_code == 200
    assert r.json()["data"]["status"] == "stopped"
    again = await sandbox_http.post(f"{url}/stop", headers=auth(**{"Idempotency-Key": "s1"}))
    assert again.json() == r.json()
    r = await act({"action": "resume"}, "r2")
    assert r.status_code == 409
    assert error_code(r) == "invalid_transition"
    archived = (
        await sandbox_http.get(f"{url}/results", headers=auth(), params={"limit": 100})
    ).json()
    assert archived["results_state"] == "archived"
    assert len(archived["data"]) == min(100, grown["result_count"])


async def test_extraction_completes_and_fails(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    done = (await _create(sandbox_http, "a")).json()["data"]["extractionId"]
    failing = (await _create(sandbox_http, "b")).json()["data"]["extractionId"]
    assert (await sandbox_http.post(f"/_sandbox/extractions/{failing}/fail")).is_success
    sandbox_clock.advance(10)
    a = (await sandbox_http.get(f"{API}/extractions/{done}", headers=auth())).json()["data"]
    b = (await sandbox_http.get(f"{API}/extractions/{failing}", headers=auth())).json()["data"]
    assert a["status"] == "completed"
    assert a["results_state"] == "archived"
    assert b["status"] == "failed"
    r = await sandbox_http.post(
        f"{API}/extractions/{done}/stop", headers=auth(**{"Idempotency-Key": "s"})
    )
    assert r.status_code == 409
    assert error_code(r) == "invalid_transition"


async def test_unknown_extraction_is_404(sandbox_http: httpx.AsyncClient) -> None:
    for method, suffix in (("GET", ""), ("GET", "/results"), ("PATCH", "/draft")):
        r = await sandbox_http.request(
            method, f"{API}/extractions/ext_999999{suffix}", headers=auth(), json={}
        )
        assert r.status_code == 404
        assert error_code(r) == "not_found"
