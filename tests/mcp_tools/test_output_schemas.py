"""Every result of every tool, success and error alike, validates against the output schema the
tool advertises in `tools/list`, read by a strict JSON Schema 2020-12 validator (schema checked
against the metaschema, formats checked): a client that validates errors too (the TypeScript
SDK's) accepts them, and its agent reads their code, quote and hint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import mcp.types as types
import pytest
from jsonschema import Draft202012Validator

from leadtui.mcp.schemas import ERROR_SCHEMA, with_errors
from leadtui.mcp.spend_answers import SpendOut
from tests.mcp_tools.conftest import SEARCH, Clock

EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


def strict(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def success_branch(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's success branch, with the definitions its references need."""
    success, error = schema["anyOf"]
    assert error == ERROR_SCHEMA
    return success | ({"$defs": schema["$defs"]} if "$defs" in schema else {})


class Results:
    """Every result received, by tool, checked against the schemas listed."""

    def __init__(self, tools: list[types.Tool]) -> None:
        self.schemas = {tool.name: tool.output_schema for tool in tools}
        self.kinds: dict[str, set[str]] = {name: set() for name in self.schemas}

    def check(self, tool: str, result: types.CallToolResult) -> dict[str, Any]:
        schema = self.schemas[tool]
        assert schema is not None, tool
        content = result.structured_content
        assert content is not None, (tool, result.content)
        errors = sorted(str(e.message) for e in strict(schema).iter_errors(content))
        assert errors == [], (tool, errors)
        # …and it is the branch it should be: an error is the error document, a success not.
        branch = ERROR_SCHEMA if result.is_error else success_branch(schema)
        assert list(strict(branch).iter_errors(content)) == [], (tool, content)
        kind = content["error"]["code"] if result.is_error else "success"
        self.kinds[tool].add(kind)
        return content


async def call(client: Any, results: Results, tool: str, /, **arguments: Any) -> dict[str, Any]:
    return results.check(tool, await client.call_tool(tool, arguments))


async def _searches_and_exports(client: Any, results: Results, clock: Clock) -> None:
    search = await call(client, results, "create_search", request=SEARCH)
    search_id = search["searchId"]
    await call(client, results, "create_search", request={**SEARCH, "countries": []})
    await call(client, results, "get_search", search_id=search_id)
    await call(client, results, "get_search", search_id="srch_nope")
    await call(client, results, "list_searches", limit=1)
    await call(client, results, "list_searches", limit=0)
    await call(client, results, "unlock_results", search_id=search_id, results=3, dry_run=True)
    sent = await call(client, results, "unlock_results", search_id=search_id, results=3)
    export_id = sent["record"]["exportId"]
    await call(client, results, "unlock_results", search_id="srch_nope", results=3)
    # Over the budget: the user is asked, and says no.
    await call(client, results, "unlock_results", search_id=search_id, results=500)
    await call(client, results, "search_results", search_id=search_id)
    await call(client, results, "search_results", search_id="srch_nope")
    await call(client, results, "export_results", export_id=export_id)  # not ready yet
    await call(client, results, "download_export", export_id=export_id)  # not ready yet
    await call(client, results, "wait_for_job", export_id=export_id, timeout_seconds=60)
    await call(client, results, "wait_for_job")
    await call(client, results, "wait_for_job", export_id="exp_nope")
    await call(client, results, "get_export", export_id=export_id)
    await call(client, results, "get_export", export_id="exp_nope")
    await call(client, results, "list_exports")
    await call(client, results, "list_exports", cursor="not-a-cursor")
    await call(client, results, "export_results", export_id=export_id)
    await call(client, results, "download_export", export_id=export_id)
    await call(client, results, "download_export", export_id=export_id, columns=["company"])
    await call(client, results, "retry_export", export_id=export_id)
    await call(client, results, "retry_export", export_id="exp_nope")
    assert clock.sleeps  # the export was waited for on the test's clock


async def _extractions(client: Any, results: Results) -> None:
    draft = await call(client, results, "draft_extraction", request={"categories": ["bakery"]})
    draft_id = draft["extractionId"]
    await call(client, results, "draft_extraction", request={"categories": "bakery"})
    changes = {key: value for key, value in EXTRACTION.items() if key != "categories"}
    await call(client, results, "update_extraction_draft", extraction_id=draft_id, changes=changes)
    await call(client, results, "update_extraction_draft", extraction_id="ext_nope", changes={})
    await call(client, results, "get_extraction", extraction_id=draft_id)
    await call(client, results, "get_extraction", extraction_id="ext_nope")
    await call(client, results, "wait_for_job", extraction_id=draft_id)
    launched = await call(client, results, "launch_extraction", extraction_id=draft_id)
    running = launched["record"]["extractionId"]
    await call(client, results, "launch_extraction", extraction_id="ext_nope")
    await call(client, results, "create_extraction", request=EXTRACTION)
    await call(client, results, "create_extraction", request={"categories": []})
    await call(client, results, "list_extractions", limit=100)
    await call(client, results, "list_extractions", limit=101)
    await call(client, results, "extraction_results", extraction_id=running)
    await call(client, results, "extraction_results", extraction_id="ext_nope")
    await call(client, results, "pause_extraction", extraction_id=running)
    await call(client, results, "pause_extraction", extraction_id="ext_nope")
    await call(client, results, "resume_extraction", extraction_id=running)
    await call(client, results, "resume_extraction", extraction_id="ext_nope")
    await call(client, results, "stop_extraction", extraction_id=running)
    await call(client, results, "stop_extraction", extraction_id="ext_nope")


async def test_every_result_of_every_tool_validates_against_its_advertised_schema(
    in_process: Any, clock: Clock
) -> None:
    async def no(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    async with in_process(elicitation=no, max_credits=100, max_launches=5) as client:
        results = Results((await client.list_tools()).tools)
        await call(client, results, "account")
        await call(client, results, "usage")
        await _searches_and_exports(client, results, clock)
        await _extractions(client, results)
    async with in_process() as client:  # no budget, and no way to ask
        await call(client, results, "unlock_results", search_id="srch_nope", results=1)
        search = await call(client, results, "create_search", request=SEARCH)
        denied = await call(
            client, results, "unlock_results", search_id=search["searchId"], results=1
        )
    async with in_process(transport=httpx.MockTransport(_unreachable)) as client:
        await call(client, results, "account")
        await call(client, results, "usage")

    # Every tool answered a success and an error, each under its schema.
    missing = [tool for tool, kinds in results.kinds.items() if "success" not in kinds]
    assert missing == []
    errorless = [tool for tool, kinds in results.kinds.items() if kinds == {"success"}]
    assert errorless == []
    # The kinds every agent must be able to read, wherever it runs.
    seen = set().union(*results.kinds.values())
    assert {
        "invalid_request",
        "not_found",
        "authorization_required",
        "authorization_declined",
        "network",
    } <= seen
    error = denied["error"]
    assert (error["code"], error["quote"]["total"]) == ("authorization_required", 1)
    assert "Ask the user" in error["hint"]


def _unreachable(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def test_results_a_newer_spend_core_adds_validate_too() -> None:
    """An overcharge told as an object, and a refusal that carries two quotes."""
    quote = {"total": 5, "unit": "credit"}
    spent = SpendOut(
        sent=True,
        dry_run=False,
        idempotency_key="k-1",
        quote=quote,
        decision={"verdict": "send"},
        record={"exportId": "exp_1"},
        debited=7,
        overcharge={"quoted": 5, "debited": 7, "request_id": "req_1"},
        allowance_left={"credits": 0, "launches": 0},
    ).model_dump(mode="json")
    changed = {
        "error": {
            "code": "quote_changed",
            "message": "The price changed while the user was asked.",
            "hint": "Ask the user again.",
            "quote": quote,
            "new_quote": quote | {"total": 10},
        }
    }
    schema = with_errors(SpendOut.model_json_schema())
    assert list(strict(success_branch(schema)).iter_errors(spent)) == []
    assert list(strict(ERROR_SCHEMA).iter_errors(changed)) == []
    assert list(strict(schema).iter_errors(changed)) == []


async def test_every_kind_of_refusal_validates_too(
    in_process: Any,
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The spend core's refusals, an outcome lost on the way, the app not answering, a folder
    or a journal that cannot be written, and a server set up wrong or not signed in."""
    auth = {"Authorization": "Bearer sk_demo_full"}
    search = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=auth)).json()
    search_id = search["data"]["searchId"]
    unlock = {"search_id": search_id, "results": 2}
    async with in_process() as client:
        results = Results((await client.list_tools()).tools)
    # First, with no unlock settled yet: a price not stated usably counts for no budget.
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 0})
    async with in_process(max_credits=100) as client:
        await call(client, results, "unlock_results", **unlock)
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1})
    async with in_process(approve_in_app=True) as client:  # and no app answers
        await call(client, results, "unlock_results", **unlock)
    async with in_process(max_credits=100) as client:
        await call(client, results, "unlock_results", **unlock, idempotency_key="same-key")
        await call(client, results, "unlock_results", search_id=search_id, results=3,
                   idempotency_key="same-key")  # fmt: skip
    with monkeypatch.context() as patch:
        patch.setenv("LEADTUI_API_KEY", "sk_demo_low")
        low = {"Authorization": "Bearer sk_demo_low"}
        poor = (await sandbox_http.post("/api/v1/searches", json=SEARCH, headers=low)).json()
        async with in_process(max_credits=100) as client:
            await call(client, results, "unlock_results",
                       search_id=poor["data"]["searchId"], results=50)  # fmt: skip
    async with in_process(transport=LosesSpendAnswers(sandbox_app), max_credits=100) as client:
        await call(client, results, "unlock_results", **unlock)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with monkeypatch.context() as patch:
        patch.setenv("LEADTUI_DOWNLOAD_DIR", str(blocked))
        async with in_process(max_credits=100) as client:
            # Another spend than the one left pending above (pending_same_spend, refused).
            await call(client, results, "unlock_results", **unlock)
            sent = await call(client, results, "unlock_results", search_id=search_id, results=4)
            await call(client, results, "wait_for_job", export_id=sent["export_id"])
            await call(client, results, "download_export", export_id=sent["export_id"])
    with monkeypatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(blocked))
        async with in_process(max_credits=100) as client:
            await call(client, results, "unlock_results", **unlock)
    with monkeypatch.context() as patch:
        patch.setenv("LEADTUI_BASE_URL", "http://api.example.com")
        async with in_process() as client:
            await call(client, results, "account")
    with monkeypatch.context() as patch:
        patch.delenv("LEADTUI_API_KEY")
        async with in_process() as client:
            await call(client, results, "account")

    seen = set().union(*results.kinds.values())
    assert {
        "idempotency_conflict",
        "insufficient_credits",
        "price_unknown",
        "outcome_unknown",
        "approval_timeout",
        "write_failed",
        "journal_unavailable",
        "configuration",
        "not_signed_in",
        "pending_same_spend",
    } <= seen, seen


class LosesSpendAnswers(httpx.AsyncBaseTransport):
    """The sandbox, whose answers to unlocks are lost on the way back."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/exports"):
            await response.aread()
            raise httpx.ReadError("the connection dropped before the answer arrived")
        return response
