"""`wait_for_job`: poll an export or an extraction until it settles or the time is up, on the
server's `Retry-After` hints (never faster than a second), with a progress notification after
every read. The clock and the sleep are the runtime's, so tests need no wall-clock waits."""

from __future__ import annotations

from typing import Annotated, Any, Final

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.api.contract import MOVING_EXPORT_STATES, MOVING_EXTRACTION_STATES
from leadtui.api.models import Record
from leadtui.mcp.reading import as_json
from leadtui.mcp.results import answer, invalid
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import IdText, JobOut

WAIT = ToolAnnotations(read_only_hint=True, open_world_hint=True)

WAIT_SECONDS_MAX: Final = 300
DEFAULT_WAIT_SECONDS: Final = 60
# Seconds between reads when the server gives no hint; and the least ever waited, so a
# `Retry-After: 0` cannot become a busy loop against the service.
DEFAULT_POLL_SECONDS: Final = 2.0
MIN_POLL_SECONDS: Final = 1.0

ExportToWait = Annotated[IdText | None, Field(description="The export to wait for.")]
ExtractionToWait = Annotated[IdText | None, Field(description="The extraction to wait for.")]
WaitSeconds = Annotated[
    float,
    Field(
        gt=0,
        le=WAIT_SECONDS_MAX,
        description=f"Give up after this many seconds (at most {WAIT_SECONDS_MAX}); the job "
        "goes on, and waiting again is free.",
    ),
]


def _describe(record: Record, status: str | None) -> str:
    progress = getattr(record, "progress", None)
    if isinstance(progress, float | int) and not isinstance(progress, bool) and 0 <= progress <= 1:
        return f"{status} {progress:.0%}"
    return f"{status}"


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    @server.tool(annotations=WAIT)
    async def wait_for_job(
        ctx: Context,
        export_id: ExportToWait = None,
        extraction_id: ExtractionToWait = None,
        timeout_seconds: WaitSeconds = DEFAULT_WAIT_SECONDS,
    ) -> Annotated[CallToolResult, JobOut]:
        """Wait until an export (export_id) or an extraction (extraction_id) settles: an
        export ready or failed; an extraction completed, failed or stopped (a draft or a
        paused extraction is answered at once: it waits for an action). Polls as the service
        asks, reports progress while it waits, and answers settled=false when the time is up.
        Costs nothing."""
        if (export_id is None) == (extraction_id is None):
            raise invalid("Give exactly one of export_id and extraction_id.")
        moving: frozenset[str]
        if export_id is not None:
            kind, job_id, moving = "export", export_id, MOVING_EXPORT_STATES
        else:
            assert extraction_id is not None
            kind, job_id, moving = "extraction", extraction_id, MOVING_EXTRACTION_STATES
        client = runtime.client()
        fetch = client.exports.get if kind == "export" else client.extractions.get
        clock, sleep = runtime.deps.clock, runtime.deps.sleep
        started = clock()
        deadline = started + timeout_seconds
        while True:
            record = await fetch(job_id)
            status = getattr(record, "status", None)
            settled = status not in moving
            waited = clock() - started
            await ctx.report_progress(
                min(waited, timeout_seconds),
                timeout_seconds,
                f"{kind} {job_id}: {_describe(record, status)}",
            )
            remaining = deadline - clock()
            if settled or remaining <= 0:
                break
            hint = record.poll_after if record.poll_after is not None else DEFAULT_POLL_SECONDS
            await sleep(min(max(hint, MIN_POLL_SECONDS), remaining))
        doc = {
            "kind": kind,
            "id": job_id,
            f"{kind}_id": job_id,
            "status": status,
            "settled": settled,
            "waited_seconds": round(waited, 3),
            "job": as_json(record),
        }
        if settled:
            summary = f"The {kind} {job_id} is {status}."
        else:
            summary = (
                f"The {kind} {job_id} is still {status} after {waited:g} s; wait again (free)."
            )
        return answer(doc, summary)
