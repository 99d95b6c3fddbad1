"""/openapi.json is part of the product: a valid OpenAPI 3.1 document that says what the
server does — no status it never sends, no null it refuses, every answer and error described.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from leadtui.api.contract import JSON_NESTING_MAX, ErrorCode, ExtractionStatus
from tests.sandbox.helpers import API


@pytest.fixture
async def document(sandbox_http: httpx.AsyncClient) -> dict[str, Any]:
    r = await sandbox_http.get(f"{API}/openapi.json")
    assert r.status_code == 200
    doc: dict[str, Any] = r.json()
    return doc


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m.upper(), p, o) for p, ms in doc["paths"].items() for m, o in ms.items()]


def error_codes(response: dict[str, Any]) -> set[str]:
    branches = response["content"]["application/json"]["schema"]["allOf"]
    codes: list[str] = branches[1]["properties"]["error"]["properties"]["code"]["enum"]
    return set(codes)


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    validate(document)  # raises on any violation of the OpenAPI 3.1 schema


def test_the_validator_would_catch_a_broken_document(document: dict[str, Any]) -> None:
    broken = {**document, "paths": {"/me": {"get": {"responses": {"200": {}}}}}}
    with pytest.raises(OpenAPIValidationError):
        validate(broken)


def test_no_operation_documents_a_422_the_server_never_sends(document: dict[str, Any]) -> None:
    for method, path, op in operations(document):
        assert "422" not in op["responses"], (method, path)
    assert "HTTPValidationError" not in document["components"]["schemas"]


def test_every_operation_lists_its_statuses_with_their_error_codes(
    document: dict[str, Any],
) -> None:
    server_codes = {str(code) for code in ErrorCode} - {ErrorCode.BAD_RESPONSE}
    documented: set[str] = set()
    for method, path, op in operations(document):
        responses = op["responses"]
        for status in ("429", "500", "502", "503"):
            assert status in responses, (method, path, status)
        assert responses["503"]["headers"]["Retry-After"]["required"] is True
        assert responses["429"]["headers"]["Retry-After"]["required"] is True
        if op["security"]:
            assert error_codes(responses["401"]) == {"unauthorized"}
            assert error_codes(responses["403"]) == {
                "insufficient_scope",
                "subscription_inactive",
                "data_access_suspended",
            }
        validated = op.get("requestBody") or any(
            p["in"] in ("query", "header") for p in op.get("parameters", [])
        )
        assert ("400" in responses) == bool(validated), (method, path)
        for status, response in responses.items():
            assert "X-Request-Id" in response["headers"], (method, path, status)
            if status.startswith(("4", "5")):
                codes = error_codes(response)
                assert codes <= server_codes
                documented |= codes
                for code in codes:
                    assert f"`{code}`" in response["description"]
    assert documented == server_codes


def test_conflicts_name_their_codes_per_operation(document: dict[str, Any]) -> None:
    paths = document["paths"]
    unlock = paths[f"{API}/searches/{{searchId}}/exports"]["post"]["responses"]
    assert error_codes(unlock["409"]) == {
        "insufficient_credits",
        "insufficient_results",
        "idempotency_conflict",
    }
    assert unlock["202"]["headers"]["Retry-After"]["required"] is True
    assert unlock["202"]["headers"]["Idempotent-Replayed"]["required"] is False
    results = paths[f"{API}/exports/{{exportId}}/results"]["get"]["responses"]
    assert error_codes(results["409"]) == {"export_not_ready"}
    assert "Retry-After" in results["409"]["headers"]
    create = paths[f"{API}/extractions"]["post"]["responses"]
    assert error_codes(create["409"]) == {"extraction_unavailable", "idempotency_conflict"}
    status = paths[f"{API}/exports/{{exportId}}"]["get"]["responses"]["200"]
    assert status["headers"]["Retry-After"]["required"] is False


def test_every_answer_has_a_described_body(document: dict[str, Any]) -> None:
    for method, path, op in operations(document):
        for status, response in op["responses"].items():
            content = response["content"]
            assert all(body["schema"] for body in content.values()), (method, path, status)
            if path.endswith(("/download", "/custom-download")) and status == "200":
                # The archive as sent, then the same bytes by the generic name.
                assert list(content) == ["application/zip", "application/octet-stream"]
            else:
                assert list(content) == ["application/json"], (method, path, status)


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    resolved: dict[str, Any] = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return resolved


def test_records_and_pages_are_described_member_by_member(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    page = schemas["ExportPage"]
    assert set(page["required"]) == {"data", "next_cursor"}
    assert page["additionalProperties"] is False
    export = schemas["ExportRecord"]
    assert "exportId" in export["required"]
    assert _resolve(document, export["properties"]["status"])["enum"] == [
        "queued",
        "processing",
        "ready",
        "failed",
    ]
    extraction = schemas["ExtractionRecord"]
    assert "extractionId" in extraction["required"]
    assert set(_resolve(document, extraction["properties"]["status"])["enum"]) == {
        "draft",
        "queued",
        "running",
        "paused",
        "stopped",
        "completed",
        "failed",
    }
    identity = schemas["Identity"]
    assert {"credits", "subscription", "scopes"} <= set(identity["required"])
    assert "status" in schemas["SubscriptionState"]["required"]
    assert set(schemas["SearchRecord"]["required"]) >= {"searchId", "result_count"}
    usage = schemas["UsageSummary"]
    assert {"totals", "daily", "credits", "access"} <= set(usage["required"])
    me = document["paths"][f"{API}/me"]["get"]["responses"]["200"]
    assert me["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/OneIdentity"
    }


def test_optional_request_members_are_absent_or_a_value_never_null(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    requests = [
        "SearchItem",
        "SearchRequest",
        "ExportRequest",
        "ExtractionRequest",
        "ExtractionDraft",
        "ExtractionAction",
        "CustomDownloadRequest",
    ]
    for name in requests:
        for member, schema in schemas[name]["properties"].items():
            assert "null" not in str(schema), (name, member)
            assert schema.get("default", "absent") is not None, (name, member)
    for method, path, op in operations(document):
        for parameter in op.get("parameters", []):
            assert "null" not in str(parameter["schema"]), (method, path, parameter["name"])


def test_urls_are_uris_and_integers_are_integers(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("ExtractionRequest", "ExtractionDraft"):
        urls = schemas[name]["properties"]["urls"]
        assert urls["items"] == {"type": "string", "format": "uri", "maxLength": 2_000}
        assert urls["maxItems"] == 100
        assert "16,384 bytes" in schemas[name]["properties"]["serp_config"]["description"]
    additional = schemas["ExportRequest"]["properties"]["additional_results"]
    assert (additional["type"], additional["minimum"], additional["maximum"]) == (
        "integer",
        1,
        50_000,
    )


def test_extraction_paging_is_marked_as_this_servers_extension(document: dict[str, Any]) -> None:
    listing = document["paths"][f"{API}/extractions"]["get"]
    assert {p["name"] for p in listing["parameters"]} == {"cursor", "limit"}
    assert "extension" in listing["description"]


def test_the_contract_page_and_the_document_say_the_same(document: dict[str, Any]) -> None:
    page = (Path(__file__).parents[2] / "docs" / "api-contract.md").read_text()
    for code in {str(code) for code in ErrorCode} - {ErrorCode.BAD_RESPONSE}:
        assert f"| `{code}` |" in page, code
    for status in ExtractionStatus:
        assert f"`{status}`" in page
    assert f"nested at most {JSON_NESTING_MAX} levels" in page
    assert f"nested at most {JSON_NESTING_MAX} levels" in document["info"]["description"]
    assert "docs/api-contract.md" in document["info"]["description"]
    extension = document["paths"][f"{API}/extractions"]["get"]["description"]
    assert "our extension" in page
    assert "extension" in extension


def test_archives_are_described_as_3_1_describes_bytes(document: dict[str, Any]) -> None:
    """By their media type alone: a schema of type string would ask a validator for text."""
    zips = [
        (path, op["responses"]["200"]["content"])
        for method, path, op in operations(document)
        if "application/zip" in op["responses"].get("200", {}).get("content", {})
    ]
    assert [path for path, _ in zips] == [
        "/api/v1/exports/{exportId}/download",
        "/api/v1/exports/{exportId}/custom-download",
    ]
    for _, content in zips:
        assert {media: body["schema"] for media, body in content.items()} == {
            "application/zip": {"contentMediaType": "application/zip"},
            "application/octet-stream": {"contentMediaType": "application/octet-stream"},
        }


def test_custom_download_columns_are_the_names_allowed(document: dict[str, Any]) -> None:
    from leadtui.api.contract import LEAD_COLUMNS

    columns = document["components"]["schemas"]["CustomDownloadRequest"]["properties"]["columns"]
    assert columns["items"] == {"type": "string", "enum": list(LEAD_COLUMNS)}


def test_the_400s_a_user_meets_are_described(document: dict[str, Any]) -> None:
    for _method, path, op in operations(document):
        cursor = [p for p in op.get("parameters", []) if p["name"] == "cursor"]
        if cursor:
            assert cursor[0]["schema"]["minLength"] == 1, path
            assert "empty" in op["responses"]["400"]["description"], path
            assert "not issued" in op["responses"]["400"]["description"], path
    launch = document["paths"]["/api/v1/extractions/{extractionId}/launch"]["post"]
    assert "The draft is incomplete" in launch["responses"]["400"]["description"]


def test_the_document_describes_its_own_body(document: dict[str, Any]) -> None:
    answer = document["paths"]["/api/v1/openapi.json"]["get"]["responses"]["200"]
    ref = answer["content"]["application/json"]["schema"]["$ref"]
    schema = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert schema["required"] == ["openapi", "info", "paths", "components"]
    assert set(schema["properties"]) == set(document)
