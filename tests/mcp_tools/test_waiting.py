"""`wait_for_job` in process, on the test's clock: it follows the service's `Retry-After`,
reports progress after every read, and answers settled=false when the time is up."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadtui.sandbox.config import SandboxConfig
from tests.conftest import FakeClock
from tests.mcp_tools.conftest import SEARCH, Clock, error_of, ok

JOB_SECONDS = 30.0


@pytest.fixture
def sandbox_config(sandbox_clock: FakeClock) -> SandboxConfig:
    return SandboxConfig(job_seconds=JOB_SECONDS, clock=sandbox_clock)


async def _export_id(sandbox_http: httpx.AsyncClient) -> str:
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    export = await sandbox_http.post(
        f"/api/v1/searches/{search['data']['searchId']}/exports",
        json={"additional_results": 2},
        headers=auth | {"Idempotency-Key": "wait-test"},
    )
    return str(export.json()["data"]["exportId"])


async def test_waits_on_the_services_hints_with_progress_until_ready(
    in_process: Any, sandbox_http: httpx.AsyncClient, clock: Clock
) -> None:
    export_id = await _export_id(sandbox_http)
    progress: list[tuple[float, float | None, str | None]] = []

    async def noted(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async with in_process() as client:
        result = await client.call_tool(
            "wait_for_job",
            {"export_id": export_id, "timeout_seconds": 300},
            progress_callback=noted,
        )
    waited = ok(result)
    assert (waited["status"], waited["settled"]) == ("ready", True)
    assert sum(clock.sleeps) >= JOB_SECONDS * 0.9
    # Polling every second, or every 2 s (our default), would take 15 to 30 reads.
    assert 1 <= len(clock.sleeps) < JOB_SECONDS / 3
    assert all(seconds >= 1 for seconds in clock.sleeps)
    assert len(progress) == len(clock.sleeps) + 1
    assert str(progress[-1][2]).startswith(f"export {export_id}: ready")
    assert [done for done, _, _ in progress] == sorted(done for done, _, _ in progress)
    assert {total for _, total, _ in progress} == {300}


async def test_time_up_answers_settled_false_not_an_error(
    in_process: Any, sandbox_http: httpx.AsyncClient, clock: Clock
) -> None:
    export_id = await _export_id(sandbox_http)
    async with in_process() as client:
        waited = ok(
            await client.call_tool("wait_for_job", {"export_id": export_id, "timeout_seconds": 5})
        )
    assert waited["settled"] is False
    assert waited["status"] in ("queued", "processing")
    assert waited["waited_seconds"] == 5
    assert clock.now == 5


@pytest.mark.parametrize("seconds", [0, -1, 301])
async def test_a_wait_out_of_bounds_is_refused_before_any_read(
    in_process: Any, clock: Clock, seconds: int
) -> None:
    async with in_process() as client:
        error = error_of(
            await client.call_tool(
                "wait_for_job", {"export_id": "exp_1", "timeout_seconds": seconds}
            )
        )
    assert error["code"] == "invalid_request"
    assert [f["field"] for f in error["fields"]] == ["timeout_seconds"]
    assert clock.sleeps == []
