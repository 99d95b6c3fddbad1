"""Through the tool server (a process, over stdio): an id that cannot be one path segment, and
an oversized argument, are refused with `invalid_request` and each field's reason, and the
sandbox's request log shows that nothing was sent: no read, no search, no spend."""

from __future__ import annotations

from typing import Any

from tests.mcp_tools.conftest import SEARCH, Machine, Sandbox, error_of

BAD_IDS = ("srch_000001/results", "..", ".", "../me", "exp\n1", "", "s" * 10_000_000)
TEN_MEGABYTES = {"note": "x" * 10_000_000}


async def test_bad_ids_and_oversized_arguments_are_refused_unsent(
    machine: Machine, sandbox: Sandbox
) -> None:
    before = sandbox.requests()
    calls: list[tuple[str, dict[str, Any], str]] = []
    for bad in BAD_IDS:
        calls += [
            ("get_search", {"search_id": bad}, "search_id"),
            ("search_results", {"search_id": bad}, "search_id"),
            ("unlock_results", {"search_id": bad, "results": 1}, "search_id"),
            ("download_export", {"export_id": bad}, "export_id"),
            ("wait_for_job", {"export_id": bad}, "export_id"),
            ("launch_extraction", {"extraction_id": bad}, "extraction_id"),
            ("stop_extraction", {"extraction_id": bad}, "extraction_id"),
        ]
    calls.append(
        ("create_search", {"request": {**SEARCH, "result_filter": TEN_MEGABYTES}}, "request")
    )
    huge_extraction = {
        "categories": ["x" * 10_000_000],
        "countries": ["France"],
        "localisations": ["Paris"],
        "enrichment_sources": ["google_maps"],
    }
    calls.append(("create_extraction", {"request": huge_extraction}, "request.categories.0"))
    async with machine.session("--max-credits", "100", "--max-launches", "1") as session:
        for tool, arguments, field in calls:
            result = await session.call_tool(tool, arguments)
            error = error_of(result)
            assert error["code"] == "invalid_request", (tool, error)
            assert [f["field"] for f in error["fields"]] == [field], (tool, error)
            assert len(result.model_dump_json()) < 5000  # the reason, never the value
    assert sandbox.requests() == before
    assert list(machine.downloads.glob("*")) == []
