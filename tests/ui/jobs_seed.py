"""For the jobs-screen tests: put jobs in the sandbox (exports and extractions in given states),
open the dashboard on one of them, and `Held`, the sandbox with chosen requests held back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from leadtui.api.client import LeadClient
from leadtui.api.models import Export, Extraction
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.widgets.job_tables import ExportTable
from tests.support.bodies import EXTRACTION, SEARCH
from tests.ui.screen import wait_until


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


async def open_jobs(pilot: Any, table: type = ExportTable, select: str | None = None) -> JobsScreen:
    """Press `4`, focus `table` (Tab's work) and put its cursor on the job `select`."""
    app = pilot.app
    await pilot.press("4")
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, JobsScreen)
    widget = screen.query_one(table)
    widget.focus()
    if select is not None:
        await wait_until(pilot, lambda: select in widget.rows)
        widget.move_cursor(row=widget.get_row_index(select))
    await pilot.pause()
    return screen


class Held(httpx.AsyncBaseTransport):
    """The sandbox, with every write (or also read, with `reads`) whose path starts with
    `hold` kept until `release`; `extra` fields are added to failed exports' records (a server
    that says why)."""

    def __init__(
        self,
        sandbox_app: Any,
        hold: str = "",
        extra: dict[str, Any] | None = None,
        *,
        reads: bool = False,
    ):
        self.sandbox = httpx.ASGITransport(app=sandbox_app)
        self.hold = hold
        self.reads = reads
        self.extra = extra or {}
        self.release = asyncio.Event()
        self.held = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        held = self.reads or request.method != "GET"
        if self.hold and held and request.url.path.startswith(self.hold):
            self.held += 1
            await self.release.wait()
        response = await self.sandbox.handle_async_request(request)
        if not self.extra or "/exports" not in request.url.path or request.method != "GET":
            return response
        body = json.loads(await response.aread())
        records = body["data"] if isinstance(body.get("data"), list) else [body.get("data")]
        for record in records:
            if isinstance(record, dict) and record.get("status") == "failed":
                record.update(self.extra)
        return httpx.Response(response.status_code, headers=response.headers, json=body)
