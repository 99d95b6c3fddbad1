"""LeadClient against the sandbox: extractions, and unlocks under injected faults."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import Conflict, LeadError
from leadtui.api.models import ExtractionRequest, Record
from tests.api.faults import Sleeps
from tests.api.test_against_sandbox import SEARCH, sandbox_requests
from tests.conftest import FakeClock
from tests.support.pages import every

MakeClient = Callable[..., LeadClient]


def unknown(record: Record, name: str) -> Any:
    """A field the spec does not show (kept by the tolerant record models)."""
    return (record.model_extra or {})[name]


REQUEST = {
    "categories": ["bakery", "florist"],
    "countries": ["FR"],
    "localisations": ["Paris", "Lyon"],
    "urls": ["https://example.com/directory"],
    "enrichment_sources": ["website"],
}


async def test_draft_edit_launch_pause_resume_stop(
    client: LeadClient, sandbox_clock: FakeClock
) -> None:
    draft = await client.extractions.create_draft({"categories": ["bakery"]})
    assert draft.status == "draft"
    assert draft.idempotency_key is None
    edited = await client.extractions.update_draft(
        draft.extractionId, {k: v for k, v in REQUEST.items() if k != "categories"}
    )
    assert unknown(edited, "countries") == ["FR"]
    assert unknown(edited, "categories") == ["bakery"]

    launched = await client.extractions.launch(draft.extractionId)
    assert launched.status in {"queued", "running"}
    assert launched.idempotency_key is not None
    assert launched.poll_after is not None
    with pytest.raises(Conflict) as not_editable:
        await client.extractions.update_draft(draft.extractionId, {"countries": ["BE"]})
    assert not_editable.value.code == "draft_not_editable"

    sandbox_clock.advance(0.2)
    assert (await client.extractions.get(draft.extractionId)).status == "running"
    paused = await client.extractions.pause(draft.extractionId)
    assert paused.status == "paused"
    assert paused.idempotency_key is not None
    resumed = await client.extractions.resume(draft.extractionId)
    assert resumed.status in {"queued", "running"}
    assert resumed.idempotency_key != paused.idempotency_key
    sandbox_clock.advance(0.2)
    live = await client.extractions.results(draft.extractionId, limit=5)
    assert live.items
    stopped = await client.extractions.stop(draft.extractionId)
    assert stopped.status == "stopped"
    with pytest.raises(Conflict) as invalid:
        await client.extractions.pause(draft.extractionId)
    assert invalid.value.code == "invalid_transition"
    assert invalid.value.idempotency_key is not None


async def test_create_replays_by_key_and_lists(client: LeadClient) -> None:
    created = await client.extractions.create(ExtractionRequest.model_validate(REQUEST))
    replay = await client.extractions.create(REQUEST, idempotency_key=created.idempotency_key)
    assert replay.extractionId == created.extractionId
    await client.extractions.create_draft({})
    page = await client.extractions.list()
    assert len(page.items) == 2
    walked = [e.extractionId for e in await every(lambda c: client.extractions.list(c, 1))]
    assert len(walked) == len(set(walked)) == 2
    assert created.extractionId in walked


async def test_finished_extraction_results_walk_to_the_end(
    client: LeadClient, sandbox_clock: FakeClock
) -> None:
    created = await client.extractions.create(REQUEST)
    sandbox_clock.advance(60)
    done = await client.extractions.get(created.extractionId)
    assert done.status == "completed"
    assert unknown(done, "results_state") == "archived"
    results = await every(lambda c: client.extractions.results(created.extractionId, c, 100))
    assert len(results) == unknown(done, "result_count")


async def test_quota_used_up_is_a_conflict(make_client: MakeClient) -> None:
    low = make_client("sk_demo_low")  # one launch
    await low.extractions.create(REQUEST)
    with pytest.raises(Conflict) as caught:
        await low.extractions.create(REQUEST)
    assert caught.value.code == "extraction_unavailable"


@pytest.fixture
async def faulty_client(sandbox_clock: FakeClock) -> AsyncIterator[tuple[LeadClient, Any]]:
    """A client against a sandbox where half the calls hit a 503, a 502 or a cut link."""
    from leadtui.sandbox.app import create_app
    from leadtui.sandbox.config import SandboxConfig

    app = create_app(
        SandboxConfig(job_seconds=0.3, clock=sandbox_clock, fault_rate=0.5, fault_seed=7)
    )
    transport = httpx.ASGITransport(app=app)
    async with LeadClient(
        "http://127.0.0.1", "sk_demo_full", transport=transport, max_retries=12, sleep=Sleeps()
    ) as client:
        yield client, app


async def test_unlocks_through_faults_debit_exactly_once(
    faulty_client: tuple[LeadClient, Any],
) -> None:
    client, app = faulty_client
    created = None
    # Creating a search carries no key, so the client does not retry it: the test does.
    for _ in range(20):
        with contextlib.suppress(LeadError):
            created = await client.searches.create(SEARCH)
            break
    assert created is not None
    exports = [await client.exports.create(created.searchId, 10) for _ in range(4)]
    credits = (await client.me()).credits
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as control:
        log = await sandbox_requests(control)
    faults = [r for r in log if r["fault"] and r["path"].endswith("/exports")]
    assert faults, "the seed must make some unlock attempts fail"
    assert credits == 10_000 - 40
    assert len({e.exportId for e in exports}) == 4
    for export in exports:
        attempts = [r for r in log if r["idempotency_key"] == export.idempotency_key]
        assert attempts
        assert attempts[-1]["status"] == 202
