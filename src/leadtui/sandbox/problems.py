"""Every failure as the spec's error body `{"error": {"code", "message", "request_id"}}`."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from leadtui.api.contract import ErrorCode


class ApiProblem(StarletteHTTPException):
    """Raised by handlers and the body reader; answered with the error body, code and message."""

    def __init__(
        self, status: int, code: ErrorCode, message: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(status, message, dict(headers or {}))
        self.code = code


def not_found(what: str) -> ApiProblem:
    return ApiProblem(404, ErrorCode.NOT_FOUND, f"{what} was not found in this account.")


def invalid(message: str) -> ApiProblem:
    return ApiProblem(400, ErrorCode.INVALID_REQUEST, message)


def new_request_id() -> str:
    return f"req_{uuid.uuid4().hex[:24]}"


def error_response(
    status: int, code: str, message: str, request_id: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "request_id": request_id}}
    # X-Request-Id itself is added by the traffic layer, on every answer.
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


def describe_validation(errors: Sequence[Any]) -> str:
    """'activities.0.name: String should have at most 160 characters' — the field first."""
    parts = []
    for err in errors[:5]:
        loc = [str(p) for p in err.get("loc", ())]
        located = bool(loc) and loc[0] in ("body", "query", "header", "path")
        if located and err.get("type") == "json_invalid":
            parts.append("body: is not valid JSON")
            continue
        # A member of the body is named by its path alone; a parameter by where it is too.
        field = ".".join(loc[1:] if loc[:1] == ["body"] else loc) or "body"
        message = str(err.get("msg", "is invalid"))
        if err.get("type") == "extra_forbidden":
            message = "is not an allowed member"
        parts.append(f"{field}: {message}")
    return "; ".join(parts) or "The request is invalid."


def allowed_methods(request: Request) -> str:
    """Every method of every route on this path; Starlette names only the first route's."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.methods:
            match, _ = route.matches(request.scope)
            if match is not Match.NONE:
                methods |= route.methods
    return ", ".join(sorted(methods))


def install_handlers(app: FastAPI) -> None:
    """Every failure answers with the error body; the traffic layer set its request id."""

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        message = describe_validation(exc.errors())
        return error_response(400, ErrorCode.INVALID_REQUEST, message, request.state.request_id)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        status, message = exc.status_code, str(exc.detail)
        headers = dict(exc.headers or {})
        if isinstance(exc, ApiProblem):
            code = exc.code
        elif status == 404:
            code, message = ErrorCode.NOT_FOUND, "No such operation."
        elif status == 405:
            code, message = ErrorCode.INVALID_REQUEST, "This method is not allowed here."
            # A 405 must list what the path allows (RFC 9110 §15.5.6).
            headers["Allow"] = allowed_methods(request)
        else:
            code = ErrorCode.INVALID_REQUEST if status < 500 else ErrorCode.INTERNAL_ERROR
        return error_response(status, code, message, request.state.request_id, headers)

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
