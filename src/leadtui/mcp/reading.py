"""The read tools (`readOnlyHint: true`): the account, usage, searches, exports, extractions
and their results, page by page; and `wait_for_job`, which polls an export or an extraction
until it settles or the time is up, on the server's `Retry-After` hints (never faster than a
second), with a progress notification after every read, on the runtime's clock and sleep."""

from __future__ import annotations

from typing import Annotated, Any, Final

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.api.contract import MOVING_EXPORT_STATES, MOVING_EXTRACTION_STATES
from leadtui.api.models import Export, Extraction, Lead, Page, Record
from leadtui.mcp.results import answer, invalid
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import (
    AccountOut,
    Cursor,
    ExportOut,
    ExtractionOut,
    IdText,
    JobOut,
    Limit,
    Open,
    PageOut,
    SearchOut,
)

READ = ToolAnnotations(read_only_hint=True, open_world_hint=True)

# The service's names for ids, and the tools' (their arguments').
ARGUMENT_NAMES: Final = (
    ("searchId", "search_id"),
    ("exportId", "export_id"),
    ("extractionId", "extraction_id"),
)

SearchId = Annotated[IdText, Field(description="The search's id (search_id in results).")]
ExportId = Annotated[IdText, Field(description="The export's id (export_id in results).")]
ExtractionId = Annotated[
    IdText, Field(description="The extraction's id (extraction_id in results).")
]

WAIT_SECONDS_MAX: Final = 300
DEFAULT_WAIT_SECONDS: Final = 60

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


def with_ids(doc: dict[str, Any]) -> dict[str, Any]:
    """The record, with the ids it holds also under the names the tools' arguments use, so an
    agent passes `search_id` on as `search_id`."""
    return {ours: doc[theirs] for theirs, ours in ARGUMENT_NAMES if theirs in doc} | doc


def page_answer(page: Page[Any], what: str, *, leads: bool = False) -> CallToolResult:
    """A page of records (each with its ids as arguments name them), or of lead records (as
    they came: third-party data)."""
    items = [item.as_sent() if leads else with_ids(item.as_sent()) for item in page.items]
    more = f" More with cursor {page.next_cursor!r}." if page.next_cursor else " Last page."
    return answer(
        {"data": items, "next_cursor": page.next_cursor},
        f"{len(items)} {what}.{more}",
        leads=leads,
    )


def record_answer(record: Record, summary: str) -> CallToolResult:
    return answer(with_ids(record.as_sent()), summary)


def job_answer(job: Export | Extraction) -> CallToolResult:
    """An export or an extraction, summed up by its status."""
    if isinstance(job, Export):
        return record_answer(job, f"Export {job.exportId}: {job.status}.")
    return record_answer(job, f"Extraction {job.extractionId}: {job.status}.")


def _describe(record: Record, status: str | None) -> str:
    progress = getattr(record, "progress", None)
    if isinstance(progress, float | int) and not isinstance(progress, bool) and 0 <= progress <= 1:
        return f"{status} {progress:.0%}"
    return f"{status}"


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    @server.tool(annotations=READ)
    async def account() -> Annotated[CallToolResult, AccountOut]:
        """The account behind the key: credits, subscription status, scopes, extraction
        launches left, and the key in use (masked). Costs nothing."""
        client = runtime.client()
        identity = await client.me()
        doc = identity.as_sent() | {"key_masked": client.key_masked}
        return answer(
            doc,
            f"{identity.credits:,} credits; subscription {identity.subscription.status}.",
        )

    @server.tool(annotations=READ)
    async def usage() -> Annotated[CallToolResult, Open]:
        """The last 30 days of API use: totals, a daily series of requests and credits used,
        the balance and the access status. Costs nothing."""
        used = await runtime.client().usage()
        return answer(
            used.as_sent(),
            f"{used.totals.requests:,} requests and {used.totals.credits_used:,} credits in "
            f"{used.window_days} days.",
        )

    @server.tool(annotations=READ)
    async def list_searches(
        cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of the account's searches, with their result counts."""
        return page_answer(await runtime.client().searches.list(cursor, limit), "searches")

    @server.tool(annotations=READ)
    async def get_search(search_id: SearchId) -> Annotated[CallToolResult, SearchOut]:
        """One search: its result count, how many are unlocked, and the price per result."""
        search = await runtime.client().searches.get(search_id)
        return record_answer(
            search,
            f"Search {search.searchId}: {search.result_count} results, "
            f"{search.unlocked_count} unlocked.",
        )

    @server.tool(annotations=READ)
    async def search_results(
        search_id: SearchId, cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of a search's results already unlocked with credits (lead records).
        Reading them costs nothing; unlock more with unlock_results."""
        page: Page[Lead] = await runtime.client().searches.results(search_id, cursor, limit)
        return page_answer(page, "lead records", leads=True)

    @server.tool(annotations=READ)
    async def list_exports(
        cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of export jobs (each unlock queues one), newest first."""
        return page_answer(await runtime.client().exports.list(cursor, limit), "exports")

    @server.tool(annotations=READ)
    async def get_export(export_id: ExportId) -> Annotated[CallToolResult, ExportOut]:
        """One export job: queued, processing, ready or failed, and its progress."""
        return job_answer(await runtime.client().exports.get(export_id))

    @server.tool(annotations=READ)
    async def export_results(
        export_id: ExportId, cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of a ready export's lead records (error export_not_ready until it is
        ready: wait_for_job waits for it)."""
        page = await runtime.client().exports.results(export_id, cursor, limit)
        return page_answer(page, "lead records", leads=True)

    @server.tool(annotations=READ)
    async def list_extractions(
        cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of extraction jobs and drafts."""
        return page_answer(await runtime.client().extractions.list(cursor, limit), "extractions")

    @server.tool(annotations=READ)
    async def get_extraction(
        extraction_id: ExtractionId,
    ) -> Annotated[CallToolResult, ExtractionOut]:
        """One extraction: draft, queued, running, paused, stopped, completed or failed."""
        return job_answer(await runtime.client().extractions.get(extraction_id))

    @server.tool(annotations=READ)
    async def extraction_results(
        extraction_id: ExtractionId, cursor: Cursor = None, limit: Limit = None
    ) -> Annotated[CallToolResult, PageOut]:
        """One page of an extraction's live or archived results (lead records)."""
        page = await runtime.client().extractions.results(extraction_id, cursor, limit)
        return page_answer(page, "lead records", leads=True)

    @server.tool(annotations=READ)
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
            await sleep(min(record.next_poll_seconds(), remaining))
        doc = {
            "kind": kind,
            "id": job_id,
            f"{kind}_id": job_id,
            "status": status,
            "settled": settled,
            "waited_seconds": round(waited, 3),
            "job": record.as_sent(),
        }
        if settled:
            summary = f"The {kind} {job_id} is {status}."
        else:
            summary = (
                f"The {kind} {job_id} is still {status} after {waited:g} s; wait again (free)."
            )
        return answer(doc, summary)
