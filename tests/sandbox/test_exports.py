"""Unlock (credits, idempotency, atomicity), the export state table, results and downloads."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
import zipfile

import httpx
import pytest

from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth, create_search, credits, error_code, unlock


async def _ready_export(http: httpx.AsyncClient, clock: FakeClock, n: int = 10) -> str:
    s = await create_search(http)
    r = await unlock(http, s["searchId"], n, "ready-1")
    clock.advance(1)
    return str(r.json()["data"]["exportId"])


async def test_unlock_debits_once_and_queues(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    r = await unlock(sandbox_http, s["searchId"], 7, "k-1")
    assert r.status_code == 202
    assert r.headers["Retry-After"] in ("1", "2")
    export = r.json()["data"]
    assert export["status"] == "queued"
    assert export["additional_results"] == 7
    assert await credits(sandbox_http) == 10_000 - 7
    search = (await sandbox_http.get(f"{API}/searches/{s['searchId']}", headers=auth())).json()
    assert search["data"]["unlocked_count"] == 7


async def test_same_key_same_body_replays_without_debit(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    first = await unlock(sandbox_http, s["searchId"], 3, "same")
    again = await unlock(sandbox_http, s["searchId"], 3, "same")
    assert again.status_code == 202
    assert again.json() == first.json()
    assert await credits(sandbox_http) == 10_000 - 3


async def test_same_key_other_body_is_conflict(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    await unlock(sandbox_http, s["searchId"], 3, "same")
    r = await unlock(sandbox_http, s["searchId"], 4, "same")
    assert r.status_code == 409
    assert error_code(r) == "idempotency_conflict"
    assert await credits(sandbox_http) == 10_000 - 3


async def test_twenty_concurrent_requests_one_key_one_export_one_debit(
    sandbox_http: httpx.AsyncClient,
) -> None:
    s = await create_search(sandbox_http)
    answers = await asyncio.gather(
        *(unlock(sandbox_http, s["searchId"], 5, "burst") for _ in range(20))
    )
    assert {r.status_code for r in answers} <= {202, 409}
    ids = {r.json()["data"]["exportId"] for r in answers if r.status_code == 202}
    assert len(ids) == 1
    exports = (await sandbox_http.get(f"{API}/exports", headers=auth())).json()["data"]
    assert len(exports) == 1
    assert await credits(sandbox_http) == 10_000 - 5


async def test_concurrent_unlocks_in_threads_one_debit(sandbox_app: object) -> None:
    # A real thread pool, not just one event loop: the SQLite transaction is what serialises.
    from concurrent.futures import ThreadPoolExecutor

    def call() -> int:
        async def go() -> int:
            transport = httpx.ASGITransport(app=sandbox_app)  # type: ignore[arg-type]
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                r = await unlock(c, "srch_000001", 2, "threads")
                return r.status_code

        return asyncio.run(go())

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),  # type: ignore[arg-type]
        base_url="http://127.0.0.1",
    ) as http:
        await create_search(http)
        with ThreadPoolExecutor(max_workers=8) as pool:
            codes = await asyncio.get_running_loop().run_in_executor(
                None, lambda: list(pool.map(lambda _: call(), range(20)))
            )
        assert set(codes) <= {202, 409}
        assert await credits(http) == 10_000 - 2


async def test_insufficient_credits_debits_nothing(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http, key="sk_demo_low")
    r = await unlock(sandbox_http, s["searchId"], 6, "k", key="sk_demo_low")
    assert r.status_code == 409
    assert error_code(r) == "insufficient_credits"
    assert await credits(sandbox_http, "sk_demo_low") == 5
    r = await unlock(sandbox_http, s["searchId"], 5, "k", key="sk_demo_low")
    assert r.status_code == 202  # a 409 was not remembered: the same key works once funded
    assert await credits(sandbox_http, "sk_demo_low") == 0


async def test_insufficient_results_debits_nothing(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    r = await unlock(sandbox_http, s["searchId"], s["result_count"] + 1, "k")
    assert r.status_code == 409
    assert error_code(r) == "insufficient_results"
    assert await credits(sandbox_http) == 10_000


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({}, {"additional_results": 1}),
        ({"Idempotency-Key": ""}, {"additional_results": 1}),
        ({"Idempotency-Key": "k" * 129}, {"additional_results": 1}),
        ({"Idempotency-Key": "k"}, {"additional_results": 0}),
        ({"Idempotency-Key": "k"}, {"additional_results": 50_001}),
        ({"Idempotency-Key": "k"}, {"additional_results": "3"}),
        ({"Idempotency-Key": "k"}, {"additional_results": 1, "x": 1}),
    ],
)
async def test_unlock_limits_are_400(
    sandbox_http: httpx.AsyncClient, headers: dict[str, str], body: dict[str, object]
) -> None:
    s = await create_search(sandbox_http)
    r = await sandbox_http.post(
        f"{API}/searches/{s['searchId']}/exports", headers=auth(**headers), json=body
    )
    assert r.status_code == 400
    assert error_code(r) == "invalid_request"
    assert await credits(sandbox_http) == 10_000


async def test_key_of_128_chars_is_accepted(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    assert (await unlock(sandbox_http, s["searchId"], 1, "k" * 128)).status_code == 202


async def test_unlock_unknown_search_is_404(sandbox_http: httpx.AsyncClient) -> None:
    r = await unlock(sandbox_http, "srch_404404", 1, "k")
    assert r.status_code == 404
    assert error_code(r) == "not_found"


async def test_export_moves_queued_processing_ready(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    s = await create_search(sandbox_http)
    export_id = (await unlock(sandbox_http, s["searchId"], 4, "k")).json()["data"]["exportId"]
    url = f"{API}/exports/{export_id}"
    seen = []
    for step in (0.1, 0.1, 0.15, 0.0):
        r = await sandbox_http.get(url, headers=auth())
        seen.append(
            (r.json()["data"]["status"], r.json()["data"]["progress"], "Retry-After" in r.headers)
        )
        results = await sandbox_http.get(f"{url}/results", headers=auth())
        if seen[-1][0] != "ready":
            assert results.status_code == 409
            assert error_code(results) == "export_not_ready"
        else:
            assert results.status_code == 200
            assert len(results.json()["data"]) == 4
        sandbox_clock.advance(step)
    assert [s for s, _, _ in seen] == ["queued", "processing", "processing", "ready"]
    assert seen[0][1] == 0.0
    assert 0 < seen[1][1] < seen[2][1] < 1
    assert seen[3][1] == 1.0
    assert [h for _, _, h in seen] == [True, True, True, False]


async def test_retry_follows_the_state_table(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    s = await create_search(sandbox_http)
    export = (await unlock(sandbox_http, s["searchId"], 4, "k")).json()["data"]
    url = f"{API}/exports/{export['exportId']}"
    r = await sandbox_http.post(f"{url}/retry", headers=auth())  # queued: unchanged
    assert r.status_code == 200
    assert r.json()["data"]["status"] == "queued"
    assert (await sandbox_http.post(f"/_sandbox/exports/{export['exportId']}/fail")).is_success
    r = await sandbox_http.get(url, headers=auth())
    assert r.json()["data"]["status"] == "failed"
    r = await sandbox_http.get(f"{url}/results", headers=auth())
    assert r.status_code == 409
    assert error_code(r) == "export_not_ready"
    r = await sandbox_http.post(f"{url}/retry", headers=auth())
    assert r.status_code == 202
    assert r.json()["data"]["status"] == "queued"
    assert await credits(sandbox_http) == 10_000 - 4  # no new debit
    sandbox_clock.advance(1)
    r = await sandbox_http.post(f"{url}/retry", headers=auth())  # ready: unchanged
    assert r.status_code == 200
    assert r.json()["data"]["status"] == "ready"
    r = await sandbox_http.post(f"{API}/exports/exp_999999/retry", headers=auth())
    assert r.status_code == 404


async def test_list_and_get_exports(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    a = (await unlock(sandbox_http, s["searchId"], 1, "a")).json()["data"]["exportId"]
    b = (await unlock(sandbox_http, s["searchId"], 1, "b")).json()["data"]["exportId"]
    listed = (await sandbox_http.get(f"{API}/exports", headers=auth())).json()
    assert [e["exportId"] for e in listed["data"]] == [b, a]
    assert listed["next_cursor"] is None
    r = await sandbox_http.get(f"{API}/exports/exp_999999", headers=auth())
    assert r.status_code == 404


async def test_download_is_zip_with_csv_and_json(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    export_id = await _ready_export(sandbox_http, sandbox_clock, 12)
    r = await sandbox_http.get(f"{API}/exports/{export_id}/download", headers=auth())
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert sorted(zf.namelist()) == ["leads.csv", "leads.json"]
        rows = list(csv.DictReader(io.StringIO(zf.read("leads.csv").decode())))
        leads = json.loads(zf.read("leads.json"))
    assert len(rows) == len(leads) == 12
    assert rows[0]["company"] == leads[0]["company"]


async def test_download_not_ready_is_409(sandbox_http: httpx.AsyncClient) -> None:
    s = await create_search(sandbox_http)
    export_id = (await unlock(sandbox_http, s["searchId"], 2, "k")).json()["data"]["exportId"]
    r = await sandbox_http.get(f"{API}/exports/{export_id}/download", headers=auth())
    assert r.status_code == 409
    assert error_code(r) == "export_not_ready"


async def test_custom_download_selected_columns(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    export_id = await _ready_export(sandbox_http, sandbox_clock, 3)
    url = f"{API}/exports/{export_id}/custom-download"
    r = await sandbox_http.post(
        url, headers=auth(), json={"columns": ["company", "email"], "format": "json"}
    )
    assert r.status_code == 200
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert zf.namelist() == ["leads.json"]
        leads = json.loads(zf.read("leads.json"))
    assert len(leads) == 3
    assert set(leads[0]) == {"company", "email"}
    r = await sandbox_http.post(url, headers=auth(), json={"columns": ["company", "ssn"]})
    assert r.status_code == 400
    assert "columns.1" in r.json()["error"]["message"]
    r = await sandbox_http.post(url, headers=auth(), json={"columns": ["company"], "format": "xml"})
    assert r.status_code == 400


async def test_zip_of_50000_leads_is_fast(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    body = {
        "activities": [{"name": n} for n in ("Bakery", "Cafe", "Restaurant", "Bar")],
        "countries": [{"name": "France"}, {"name": "Belgium"}],
        "localisations": [{"name": p} for p in ("Paris", "Lyon", "Lille", "Nice", "Metz", "Brest")],
    }
    s = (await sandbox_http.post(f"{API}/searches", headers=auth(), json=body)).json()["data"]
    assert s["result_count"] >= 50_000
    await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"credits": 60_000})
    export_id = (await unlock(sandbox_http, s["searchId"], 50_000, "big")).json()["data"][
        "exportId"
    ]
    sandbox_clock.advance(1)
    started = time.perf_counter()
    r = await sandbox_http.get(f"{API}/exports/{export_id}/download", headers=auth())
    elapsed = time.perf_counter() - started
    assert r.status_code == 200
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert zf.read("leads.csv").count(b"\n") == 50_001
    assert elapsed < 10
