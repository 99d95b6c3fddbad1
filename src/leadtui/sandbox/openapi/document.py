"""`build_openapi`: FastAPI's document of the routes, made to tell the whole truth.

FastAPI documents a 422 nobody sends and no error body; here the answers declared with
`op(...)` stand alone, the error schema and the `X-Request-Id` header are added, a list's 400
names its cursor, custom-download `columns` lists the names allowed, and `GET /openapi.json`
documents itself and its body.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from leadtui.api.contract import (
    API_PREFIX,
    API_VERSION,
    JSON_NESTING_MAX,
    LEAD_COLUMNS,
    REQUEST_ID_HEADER,
    ErrorCode,
)
from leadtui.sandbox.openapi.operations import ALWAYS_ERRORS, INVALID_PAGE, error

TITLE: Final = "Lead Data API (leadtui sandbox)"
DESCRIPTION: Final = (
    "A local, stateful implementation of the Lead Data API. Every error answers with the "
    "`Error` schema; branch on `error.code`, never on the message. Every answer carries "
    f"`{REQUEST_ID_HEADER}`, the same id as `error.request_id`. Optional request members "
    "are omitted, never null. Request bodies are UTF-8 JSON, each member once, nested at "
    f"most {JSON_NESTING_MAX} levels. Choices where the spec is silent: docs/api-contract.md."
)
# The error codes the server sends (`bad_response` is the client's own).
SERVER_CODES: Final = [str(code) for code in ErrorCode if code != ErrorCode.BAD_RESPONSE]

_ERROR: Final = {
    "type": "object",
    "description": "The body of every non-2xx answer.",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "request_id"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "enum": SERVER_CODES},
                "message": {"type": "string"},
                "request_id": {"type": "string"},
            },
        }
    },
}
_REQUEST_ID: Final = {
    "description": "The request's id (also `error.request_id`); quote it when reporting.",
    "required": True,
    "schema": {"type": "string"},
}
DOCUMENT_SCHEMA: Final = "#/components/schemas/OpenApiDocument"
# FastAPI's own validation answer, which this server never sends (it answers 400).
_UNSENT_SCHEMAS: Final = ("HTTPValidationError", "ValidationError")


# The body of `GET /openapi.json`: this document, as far as a reader needs to know before
# reading it (its members are OpenAPI 3.1's own).
_DOCUMENT: Final = {
    "type": "object",
    "description": "An OpenAPI 3.1.0 document: this server's every operation.",
    "required": ["openapi", "info", "paths", "components"],
    "additionalProperties": False,
    "properties": {
        "openapi": {"type": "string", "enum": ["3.1.0"]},
        "info": {
            "type": "object",
            "required": ["title", "version"],
            "properties": {
                "title": {"type": "string"},
                "description": {"type": "string"},
                "version": {"type": "string"},
            },
        },
        "paths": {"type": "object", "additionalProperties": {"type": "object"}},
        "components": {
            "type": "object",
            "properties": {
                "schemas": {"type": "object", "additionalProperties": {"type": "object"}},
                "securitySchemes": {"type": "object", "additionalProperties": {"type": "object"}},
            },
        },
    },
}


def _openapi_json_operation() -> dict[str, Any]:
    return {
        "summary": "This OpenAPI 3.1 document",
        "operationId": "openapi",
        "tags": ["discovery"],
        "security": [],
        "responses": {
            "200": {
                "description": "The OpenAPI 3.1.0 document.",
                "content": {"application/json": {"schema": {"$ref": DOCUMENT_SCHEMA}}},
            },
            **{str(status): copy.deepcopy(doc) for status, doc in ALWAYS_ERRORS.items()},
        },
    }


def _takes_cursor(operation: dict[str, Any]) -> bool:
    return any(
        parameter.get("name") == "cursor" and parameter.get("in") == "query"
        for parameter in operation.get("parameters", [])
    )


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """OpenAPI 3.1.0, version 1.0.0: every path, body, parameter, scope, answer and error."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = copy.deepcopy(
        get_openapi(
            title=TITLE,
            version=API_VERSION,
            openapi_version="3.1.0",
            description=DESCRIPTION,
            routes=app.routes,
        )
    )
    paths = schema["paths"]
    paths[f"{API_PREFIX}/openapi.json"] = {"get": _openapi_json_operation()}
    for operations in paths.values():
        for operation in operations.values():
            responses = operation["responses"]
            responses.pop("422", None)
            if "400" in responses and _takes_cursor(operation):
                responses["400"] = error(INVALID_PAGE, [ErrorCode.INVALID_REQUEST])
            for response in responses.values():
                response.setdefault("headers", {})[REQUEST_ID_HEADER] = _REQUEST_ID
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in _UNSENT_SCHEMAS:
        schemas.pop(name, None)
    schemas["Error"] = _ERROR
    schemas["OpenApiDocument"] = _DOCUMENT
    # Only these columns may be asked for; FastAPI's schema says any string.
    columns = schemas["CustomDownloadRequest"]["properties"]["columns"]
    columns["items"] = {"type": "string", "enum": list(LEAD_COLUMNS)}
    components["securitySchemes"] = {
        "bearerAuth": {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key; the scope each operation needs is listed on it.",
        }
    }
    app.openapi_schema = schema
    return schema
