"""An agent chains calls without reading a schema: every result that names a search, an
export or an extraction names it also as the next tool's argument does (`search_id`,
`export_id`, `extraction_id`), beside the server's own record."""

from __future__ import annotations

from typing import Any

from tests.mcp_tools.conftest import SEARCH, ok


def passed_on(result: dict[str, Any], *names: str) -> dict[str, Any]:
    """The arguments of the next call, taken from a result under their own names."""
    return {name: result[name] for name in names}


async def test_each_result_hands_its_ids_on_under_the_arguments_names(in_process: Any) -> None:
    async with in_process(max_credits=10, max_launches=1) as client:
        search = ok(await client.call_tool("create_search", {"request": SEARCH}))
        assert search["search_id"] == search["searchId"]
        got = ok(await client.call_tool("get_search", passed_on(search, "search_id")))
        listed = ok(await client.call_tool("list_searches", {}))
        assert got["search_id"] in [item["search_id"] for item in listed["data"]]

        unlocked = ok(
            await client.call_tool("unlock_results", passed_on(got, "search_id") | {"results": 2})
        )
        assert unlocked["export_id"] == unlocked["record"]["exportId"]
        assert unlocked["extraction_id"] is None
        waited = ok(await client.call_tool("wait_for_job", passed_on(unlocked, "export_id")))
        assert waited["settled"] is True
        export = ok(await client.call_tool("get_export", passed_on(waited, "export_id")))
        assert export["search_id"] == search["search_id"]  # the export names its search too
        saved = ok(await client.call_tool("download_export", passed_on(export, "export_id")))
        assert saved["export_id"] == export["export_id"]
        exports = ok(await client.call_tool("list_exports", {}))
        assert export["export_id"] in [item["export_id"] for item in exports["data"]]
        leads = ok(await client.call_tool("export_results", passed_on(saved, "export_id")))
        assert all("export_id" not in lead for lead in leads["data"])  # third-party, as sent

        draft = ok(
            await client.call_tool("draft_extraction", {"request": {"categories": ["bakery"]}})
        )
        changes = {
            "countries": ["FR"],
            "localisations": ["Paris"],
            "enrichment_sources": ["website"],
        }
        edited = ok(
            await client.call_tool(
                "update_extraction_draft", passed_on(draft, "extraction_id") | {"changes": changes}
            )
        )
        launched = ok(
            await client.call_tool("launch_extraction", passed_on(edited, "extraction_id"))
        )
        assert launched["extraction_id"] == draft["extraction_id"]
        job = ok(await client.call_tool("get_extraction", passed_on(launched, "extraction_id")))
        listed_jobs = ok(await client.call_tool("list_extractions", {}))
        assert job["extraction_id"] in [item["extraction_id"] for item in listed_jobs["data"]]
