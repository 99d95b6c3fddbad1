"""`GET /` (discovery) and `GET /openapi.json`: the two operations without auth."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, API_VERSION, IDEMPOTENCY_HEADER
from leadtui.sandbox.accounts import DEMO_ACCOUNTS
from leadtui.sandbox.auth import op
from leadtui.sandbox.problems import ErrorBody
from leadtui.sandbox.records import EXTRACTION_LAUNCH_COST, PRICE_PER_RESULT

TITLE = "Lead Data API (leadtui sandbox)"
router = APIRouter(prefix=API_PREFIX, tags=["discovery"])


def _operations(app: FastAPI) -> list[dict[str, Any]]:
    """Every documented operation, read from the OpenAPI document (one source of truth)."""
    links = []
    for path, methods in app.openapi()["paths"].items():
        for method, operation in methods.items():
            links.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary"),
                    "scope": operation.get("x-required-scope"),
                }
            )
    return links


@router.get("/", **op(None, summary="Discovery document"))
async def discovery(request: Request) -> JSONResponse:
    app = request.app
    assert isinstance(app, FastAPI)
    quota = {account.name: account.extraction_quota for account in DEMO_ACCOUNTS}
    return JSONResponse(
        {
            "name": TITLE,
            "version": API_VERSION,
            "base_path": API_PREFIX,
            "openapi": f"{API_PREFIX}/openapi.json",
            "docs": f"{API_PREFIX}/docs",
            "authentication": "Authorization: Bearer <API_KEY>",
            "idempotency_header": IDEMPOTENCY_HEADER,
            "pricing": {
                "unit": "credits",
                "price_per_result": PRICE_PER_RESULT,
                "extraction_launch": {
                    "credits": 0,
                    "launches_consumed": EXTRACTION_LAUNCH_COST,
                    "note": "Drafts are free; create and launch each use one launch of the "
                    "account's extraction quota.",
                    "quota_by_account": quota,
                },
            },
            "operations": _operations(app),
        }
    )


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """OpenAPI 3.1.0, version 1.0.0: every path, body, parameter, scope and the error schema."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = get_openapi(
        title=TITLE,
        version=API_VERSION,
        openapi_version="3.1.0",
        description="A local, stateful implementation of the Lead Data API. Every error "
        "answers with the `Error` schema; branch on `error.code`.",
        routes=app.routes,
    )
    paths = schema["paths"]
    paths[f"{API_PREFIX}/openapi.json"] = {
        "get": {
            "summary": "This OpenAPI 3.1 document",
            "operationId": "openapi",
            "security": [],
            "responses": {"200": {"description": "The OpenAPI 3.1.0 document."}},
        }
    }
    retry = paths[f"{API_PREFIX}/exports/{{exportId}}/retry"]["post"]["responses"]
    retry["200"] = {"description": "The export was not failed; it is returned unchanged."}
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})["bearerAuth"] = {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key; the scopes each operation needs are listed on it.",
    }
    # FastAPI registers ErrorBody from the responses; "Error" is the name the docs use.
    components.setdefault("schemas", {})["Error"] = {
        "$ref": f"#/components/schemas/{ErrorBody.__name__}"
    }
    app.openapi_schema = schema
    return schema
