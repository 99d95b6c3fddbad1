"""LeadClient against the sandbox (in process, over ASGI): account, searches, exports.

Extractions are in test_against_sandbox_extractions.py; both together cover all 24 operations.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.contract import ALL_SCOPES, API_PREFIX
from leadtui.api.errors import Conflict, Forbidden, InvalidRequest, NotFound, Unauthorized
from leadtui.api.models import Export, Search
from tests.conftest import FakeClock
from tests.support.pages import every

MakeClient = Callable[..., LeadClient]

# Three activities, two countries, two places: always well over 100 results.
SEARCH = {
    "activities": [{"name": "bakery"}, {"name": "florist"}, {"name": "butcher"}],
    "countries": [{"name": "France"}, {"name": "Belgium"}],
    "localisations": [{"name": "Paris"}, {"name": "Lyon", "localisationType": "city"}],
}

OPERATIONS = {
    ("GET", "/"),
    ("GET", "/openapi.json"),
    ("GET", "/me"),
    ("GET", "/usage"),
    ("GET", "/searches"),
    ("POST", "/searches"),
    ("GET", "/searches/{searchId}"),
    ("GET", "/searches/{searchId}/results"),
    ("POST", "/searches/{searchId}/exports"),
    ("GET", "/exports"),
    ("GET", "/exports/{exportId}"),
    ("GET", "/exports/{exportId}/results"),
    ("POST", "/exports/{exportId}/retry"),
    ("GET", "/exports/{exportId}/download"),
    ("POST", "/exports/{exportId}/custom-download"),
    ("POST", "/extractions/drafts"),
    ("GET", "/extractions"),
    ("POST", "/extractions"),
    ("PATCH", "/extractions/{extractionId}/draft"),
    ("POST", "/extractions/{extractionId}/launch"),
    ("GET", "/extractions/{extractionId}"),
    ("PATCH", "/extractions/{extractionId}"),
    ("GET", "/extractions/{extractionId}/results"),
    ("POST", "/extractions/{extractionId}/stop"),
}


async def sandbox_requests(sandbox_http: httpx.AsyncClient) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return records


async def ready_export(client: LeadClient, clock: FakeClock, amount: int) -> tuple[Search, Export]:
    search = await client.searches.create(SEARCH)
    export = await client.exports.create(search.searchId, amount)
    clock.advance(1)
    return search, export


async def test_discovery_and_openapi_are_public_and_document_all_24_operations(
    sandbox_http: httpx.AsyncClient,
) -> None:
    # No key is sent: both documents are public.
    discovery = (await sandbox_http.get(f"{API_PREFIX}/")).json()
    openapi = (await sandbox_http.get(f"{API_PREFIX}/openapi.json")).json()
    assert discovery["openapi"].endswith("/openapi.json")
    assert openapi["openapi"] == "3.1.0"
    assert openapi["info"]["version"] == "1.0.0"
    documented = {
        (method.upper(), path.removeprefix(API_PREFIX) or "/")
        for path, methods in openapi["paths"].items()
        for method in methods
    }
    assert documented >= OPERATIONS


async def test_me_and_usage(client: LeadClient) -> None:
    me = await client.me()
    usage = await client.usage()
    assert me.credits == 10_000
    assert me.active
    assert set(me.scopes) == {str(s) for s in ALL_SCOPES}
    assert usage.window_days == 30
    assert len(usage.daily) == 30
    assert usage.credits == 10_000


@pytest.mark.parametrize(
    ("key", "error", "code"),
    [
        ("sk_demo_revoked", Unauthorized, "unauthorized"),
        ("sk_demo_expired", Unauthorized, "unauthorized"),
        ("sk_not_a_key_at_all", Unauthorized, "unauthorized"),
        ("sk_demo_inactive", Forbidden, "subscription_inactive"),
        ("sk_demo_suspended", Forbidden, "data_access_suspended"),
    ],
)
async def test_rejected_keys_raise_typed_errors_without_the_key(
    make_client: MakeClient, key: str, error: type[Exception], code: str
) -> None:
    client = make_client(key)
    with pytest.raises(error) as caught:
        await client.searches.list()
    assert getattr(caught.value, "code", None) == code
    assert getattr(caught.value, "request_id", None)
    assert key not in str(caught.value)
    assert key not in repr(caught.value)


async def test_read_only_key_cannot_spend(make_client: MakeClient) -> None:
    readonly = make_client("sk_demo_readonly")
    with pytest.raises(Forbidden) as caught:
        await readonly.searches.create(SEARCH)
    assert caught.value.code == "insufficient_scope"
    assert (await readonly.me()).credits == 10_000


async def test_searches_create_get_list_and_results(client: LeadClient) -> None:
    search = await client.searches.create(SEARCH)
    assert search.result_count is not None
    assert search.result_count > 100
    again = await client.searches.get(search.searchId)
    assert again.searchId == search.searchId
    assert again.result_count == search.result_count
    page = await client.searches.list()
    assert [s.searchId for s in page.items] == [search.searchId]
    assert page.next_cursor is None
    nothing_unlocked = await client.searches.results(search.searchId)
    assert nothing_unlocked.items == []


async def test_a_list_is_read_page_after_page(
    client: LeadClient, sandbox_http: httpx.AsyncClient
) -> None:
    created = [(await client.searches.create(SEARCH)).searchId for _ in range(5)]
    walked = [s.searchId for s in await every(lambda c: client.searches.list(c, 2))]
    assert sorted(walked) == sorted(created)
    lists = [r for r in await sandbox_requests(sandbox_http) if r["path"].endswith("/searches")]
    assert sum(r["method"] == "GET" for r in lists) == 3


async def test_limit_at_100_is_accepted_and_101_never_leaves_the_client(
    client: LeadClient, sandbox_http: httpx.AsyncClient
) -> None:
    await client.searches.create(SEARCH)
    assert len((await client.searches.list(limit=100)).items) == 1
    sent = len(await sandbox_requests(sandbox_http))
    with pytest.raises(ValueError, match="limit"):
        await client.searches.list(limit=101)
    assert len(await sandbox_requests(sandbox_http)) == sent


async def test_unknown_ids_and_forged_cursors(client: LeadClient) -> None:
    with pytest.raises(NotFound) as missing:
        await client.searches.get("srch_nope")
    assert missing.value.code == "not_found"
    with pytest.raises(InvalidRequest) as forged:
        await client.exports.list(cursor="forged.cursor")
    assert forged.value.code == "invalid_request"


async def test_unlock_debits_once_and_replays_by_key(
    client: LeadClient, sandbox_clock: FakeClock, sandbox_http: httpx.AsyncClient
) -> None:
    search = await client.searches.create(SEARCH)
    export = await client.exports.create(search.searchId, 30)
    assert export.status == "queued"
    assert export.idempotency_key is not None
    assert export.poll_after is not None
    assert export.poll_after > 0
    assert (await client.me()).credits == 9_970

    replay = await client.exports.create(
        search.searchId, 30, idempotency_key=export.idempotency_key
    )
    assert replay.exportId == export.exportId
    assert (await client.me()).credits == 9_970
    with pytest.raises(Conflict) as conflict:
        await client.exports.create(search.searchId, 31, idempotency_key=export.idempotency_key)
    assert conflict.value.code == "idempotency_conflict"
    assert conflict.value.idempotency_key == export.idempotency_key
    keys = {
        r["idempotency_key"]
        for r in await sandbox_requests(sandbox_http)
        if r["path"].endswith("/exports")
    }
    assert keys == {export.idempotency_key}


async def test_export_lifecycle_results_and_pages(
    client: LeadClient, sandbox_clock: FakeClock
) -> None:
    search = await client.searches.create(SEARCH)
    export = await client.exports.create(search.searchId, 30)
    with pytest.raises(Conflict) as not_ready:
        await client.exports.results(export.exportId)
    assert not_ready.value.code == "export_not_ready"
    sandbox_clock.advance(1)
    ready = await client.exports.get(export.exportId)
    assert ready.status == "ready"
    assert ready.poll_after is None
    page = await client.exports.results(export.exportId, limit=10)
    assert len(page.items) == 10
    assert page.next_cursor is not None
    leads = await every(lambda c: client.exports.results(export.exportId, c, 7))
    assert len(leads) == 30
    assert len({(lead.model_extra or {})["leadId"] for lead in leads}) == 30
    unlocked = await every(lambda c: client.searches.results(search.searchId, c, 9))
    assert len(unlocked) == 30
    assert (await client.searches.get(search.searchId)).unlocked_count == 30


async def test_exports_list_page_after_page(client: LeadClient) -> None:
    search = await client.searches.create(SEARCH)
    made = [(await client.exports.create(search.searchId, 1)).exportId for _ in range(3)]
    first = await client.exports.list(limit=2)
    assert len(first.items) == 2
    assert first.next_cursor is not None
    walked = await every(lambda c: client.exports.list(c, 2))
    assert sorted(e.exportId for e in walked) == sorted(made)


async def test_not_enough_credits_is_a_conflict_that_spends_nothing(
    make_client: MakeClient,
) -> None:
    low = make_client("sk_demo_low")
    search = await low.searches.create(SEARCH)
    with pytest.raises(Conflict) as caught:
        await low.exports.create(search.searchId, 6)
    assert caught.value.code == "insufficient_credits"
    assert caught.value.idempotency_key is not None
    assert (await low.me()).credits == 5
    with pytest.raises(Conflict) as too_many:
        await low.exports.create(search.searchId, 50_000)
    assert too_many.value.code in {"insufficient_results", "insufficient_credits"}


async def test_retry_requeues_a_failed_export_without_credits(
    client: LeadClient, sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    search = await client.searches.create(SEARCH)
    export = await client.exports.create(search.searchId, 5)
    unchanged = await client.exports.retry(export.exportId)
    assert unchanged.status == export.status
    failed = await sandbox_http.post(f"/_sandbox/exports/{export.exportId}/fail")
    assert failed.status_code == 200
    assert (await client.exports.get(export.exportId)).status == "failed"
    credits = (await client.me()).credits
    requeued = await client.exports.retry(export.exportId)
    assert requeued.status == "queued"
    assert (await client.me()).credits == credits
    sandbox_clock.advance(1)
    assert (await client.exports.get(export.exportId)).status == "ready"


async def test_download_is_a_complete_zip_with_progress(
    client: LeadClient, sandbox_clock: FakeClock, tmp_path: Path
) -> None:
    _, export = await ready_export(client, sandbox_clock, 40)
    progress: list[tuple[int, int | None]] = []
    target = tmp_path / "leads.zip"
    saved = await client.exports.download(
        export.exportId, target, on_progress=lambda done, total: progress.append((done, total))
    )
    assert saved == target
    assert not (tmp_path / "leads.zip.part").exists()
    with zipfile.ZipFile(target) as archive:
        assert archive.testzip() is None
        name = next(n for n in archive.namelist() if n.endswith(".csv"))
        rows = list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8-sig"))))
    assert len(rows) == 40
    done, total = progress[-1]
    assert done == target.stat().st_size
    assert total in (None, done)


async def test_custom_download_keeps_only_the_chosen_columns(
    client: LeadClient, sandbox_clock: FakeClock, tmp_path: Path
) -> None:
    _, export = await ready_export(client, sandbox_clock, 12)
    target = await client.exports.custom_download(
        export.exportId, tmp_path / "custom.zip", ["company", "city"]
    )
    with zipfile.ZipFile(target) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".csv"))
        reader = csv.DictReader(io.StringIO(archive.read(name).decode("utf-8-sig")))
        rows = list(reader)
    assert reader.fieldnames == ["company", "city"]
    assert len(rows) == 12
    with pytest.raises(InvalidRequest, match="password"):
        await client.exports.custom_download(export.exportId, tmp_path / "bad.zip", ["password"])
    assert not (tmp_path / "bad.zip").exists()
