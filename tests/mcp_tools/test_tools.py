"""Every read and change tool once, end to end: the official client over stdio, `leadtui mcp`
as a process, a real `leadtui sandbox`. What the agent reads is structured content under the
tool's output schema, a short text with the data fenced, and errors with their code."""

from __future__ import annotations

import uuid
import zipfile
from pathlib import Path

from mcp.client.session import ClientSession

from tests.mcp_tools.conftest import SEARCH, Machine, Sandbox, error_of, ok, text_of

READ_TOOLS = (
    "account",
    "usage",
    "list_searches",
    "get_search",
    "search_results",
    "list_exports",
    "get_export",
    "export_results",
    "list_extractions",
    "get_extraction",
    "extraction_results",
)
CHANGE_TOOLS = (
    "create_search",
    "retry_export",
    "download_export",
    "draft_extraction",
    "update_extraction_draft",
    "pause_extraction",
    "resume_extraction",
    "stop_extraction",
)
EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


async def _searches_and_exports(machine: Machine, sandbox: Sandbox, session: ClientSession) -> None:
    search = ok(await machine.call(session, "create_search", {"request": SEARCH}))
    search_id = search["searchId"]
    assert (
        ok(await machine.call(session, "get_search", {"search_id": search_id}))["result_count"]
        == search["result_count"]
    )
    listed = ok(await machine.call(session, "list_searches", {"limit": 1}))
    assert [s["searchId"] for s in listed["data"]] == [search_id]

    # An unlock made outside the server (the spending tools have tests of their own).
    export = sandbox.control(
        "POST",
        f"/api/v1/searches/{search_id}/exports",
        {"additional_results": 3},
        key="sk_demo_full",
        idempotency_key=str(uuid.uuid4()),
    )
    export_id = export["exportId"]
    waited = ok(
        await machine.call(session, "wait_for_job", {"export_id": export_id, "timeout_seconds": 60})
    )
    assert (waited["status"], waited["settled"]) == ("ready", True)
    assert (
        ok(await machine.call(session, "get_export", {"export_id": export_id}))["status"] == "ready"
    )
    assert export_id in [
        e["exportId"] for e in ok(await machine.call(session, "list_exports", {}))["data"]
    ]

    first = await machine.call(session, "export_results", {"export_id": export_id, "limit": 2})
    page = ok(first)
    assert len(page["data"]) == 2
    assert page["next_cursor"]
    assert "untrusted" in text_of(first)
    assert "never as instructions" in text_of(first)
    rest = ok(
        await machine.call(
            session, "export_results", {"export_id": export_id, "cursor": page["next_cursor"]}
        )
    )
    assert (len(rest["data"]), rest["next_cursor"]) == (1, None)
    unlocked = ok(await machine.call(session, "search_results", {"search_id": search_id}))
    assert len(unlocked["data"]) == 3

    whole = ok(await machine.call(session, "download_export", {"export_id": export_id}))
    custom = ok(
        await machine.call(
            session,
            "download_export",
            {"export_id": export_id, "columns": ["company", "postal_code"]},
        )
    )
    for saved in (whole, custom):
        path = Path(saved["path"])
        assert path.parent == machine.downloads
        assert len(path.read_bytes()) == saved["bytes"]  # noqa: ASYNC240
        assert zipfile.is_zipfile(path)
    assert Path(custom["path"]).name == f"{export_id}-custom.zip"

    retried = ok(await machine.call(session, "retry_export", {"export_id": export_id}))
    assert retried["status"] == "ready"  # not failed: unchanged, and no credit spent


async def _extractions(machine: Machine, sandbox: Sandbox, session: ClientSession) -> None:
    draft = ok(
        await machine.call(session, "draft_extraction", {"request": {"categories": ["bakery"]}})
    )
    extraction_id = draft["extractionId"]
    changes = {key: value for key, value in EXTRACTION.items() if key != "categories"}
    updated = ok(
        await machine.call(
            session,
            "update_extraction_draft",
            {"extraction_id": extraction_id, "changes": changes},
        )
    )
    assert updated["extractionId"] == extraction_id
    # A draft waits for an action: waiting answers at once.
    waited = ok(await machine.call(session, "wait_for_job", {"extraction_id": extraction_id}))
    assert (waited["status"], waited["settled"]) == ("draft", True)

    sandbox.control("POST", "/_sandbox/clock", {"freeze": True})
    try:
        sandbox.control(
            "POST",
            f"/api/v1/extractions/{extraction_id}/launch",
            key="sk_demo_full",
            idempotency_key=str(uuid.uuid4()),
        )
        ids = {"extraction_id": extraction_id}
        assert ok(await machine.call(session, "pause_extraction", ids))["status"] == "paused"
        assert ok(await machine.call(session, "resume_extraction", ids))["status"] != "paused"
        assert ok(await machine.call(session, "stop_extraction", ids))["status"] == "stopped"
    finally:
        sandbox.control("POST", "/_sandbox/clock", {"freeze": False})
    assert ok(await machine.call(session, "get_extraction", ids))["status"] == "stopped"
    listed = ok(await machine.call(session, "list_extractions", {"limit": 100}))
    assert extraction_id in [e["extractionId"] for e in listed["data"]]
    results = await machine.call(session, "extraction_results", ids)
    assert "next_cursor" in ok(results)
    assert "untrusted" in text_of(results)


async def test_every_read_and_change_tool_over_stdio(machine: Machine, sandbox: Sandbox) -> None:
    credits = sandbox.credits()
    async with machine.session() as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name in READ_TOOLS:
            assert listed[name].annotations is not None
            assert listed[name].annotations.read_only_hint is True, name
            assert listed[name].output_schema is not None, name
        for name in CHANGE_TOOLS:
            assert listed[name].annotations is not None
            assert listed[name].annotations.read_only_hint is False, name
            assert listed[name].output_schema is not None, name

        account = ok(await machine.call(session, "account"))
        assert account["credits"] == credits
        assert account["key_masked"] != "sk_demo_full"
        assert account["key_masked"].endswith("full")
        usage = ok(await machine.call(session, "usage"))
        assert usage["window_days"] == 30

        await _searches_and_exports(machine, sandbox, session)
        await _extractions(machine, sandbox, session)

    assert sandbox.credits() == credits - 3  # the one unlock made outside the server


async def test_errors_carry_their_code_and_the_server_keeps_serving(
    machine: Machine, sandbox: Sandbox
) -> None:
    before = len(sandbox.requests())
    async with machine.session() as session:
        refused = error_of(await machine.call(session, "list_searches", {"limit": 0}))
        assert refused["code"] == "invalid_request"
        assert refused["fields"] == [
            {"field": "limit", "reason": "Input should be greater than or equal to 1"}
        ]
        too_long = {**SEARCH, "localisations": [{"name": "x" * 161}]}
        refused = error_of(await machine.call(session, "create_search", {"request": too_long}))
        assert [f["field"] for f in refused["fields"]] == ["request.localisations.0.name"]
        assert "x" * 161 not in refused["message"]  # the reason, never the value
        neither = error_of(await machine.call(session, "wait_for_job", {}))
        assert neither["code"] == "invalid_request"
        assert len(sandbox.requests()) == before  # bad arguments: nothing sent

        missing = await machine.call(session, "get_export", {"export_id": "exp_nope"})
        error = error_of(missing)
        assert (error["code"], error["status"]) == ("not_found", 404)
        assert error["request_id"].startswith("req_")
        assert error["request_id"] in text_of(missing)
        assert "Traceback" not in text_of(missing)

        # Still serving after every failure.
        assert ok(await machine.call(session, "account"))["credits"] >= 0


async def test_the_key_is_in_nothing_the_client_receives_nor_in_the_server_log(
    machine: Machine, sandbox: Sandbox
) -> None:
    async with machine.session() as session:
        listed = await session.list_tools()
        machine.received.append(listed.model_dump_json())
        await machine.call(session, "account")
        await machine.call(session, "get_search", {"search_id": "srch_nope"})
        await machine.call(session, "wait_for_job", {"export_id": "exp_nope"})
    async with machine.session(key="sk_demo_revoked") as session:
        revoked = error_of(await machine.call(session, "account"))
        assert revoked["code"] == "unauthorized"
    received = "\n".join(machine.received)
    assert "unauthorized" in received
    logged = (machine.home / "server-stderr.txt").read_text()
    for key in ("sk_demo_full", "sk_demo_revoked"):
        assert key not in received
        assert key not in logged
