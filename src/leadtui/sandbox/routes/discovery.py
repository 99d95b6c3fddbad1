"""`GET /` (discovery) and `GET /openapi.json`: the two operations without auth."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, API_VERSION, IDEMPOTENCY_HEADER
from leadtui.sandbox.accounts import DEMO_ACCOUNTS
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.control import levers
from leadtui.sandbox.domain.ledger import EXTRACTION_LAUNCH_COST, PRICE_PER_RESULT
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.openapi.document import TITLE
from leadtui.sandbox.openapi.operations import Answer, op
from leadtui.sandbox.openapi.records import Discovery
from leadtui.sandbox.state import Sandbox

router = APIRouter(prefix=API_PREFIX, tags=["discovery"], route_class=StrictJsonRoute)


def _operations(app: FastAPI) -> list[dict[str, Any]]:
    """Every documented operation, read from the OpenAPI document (one source of truth)."""
    return [
        {
            "method": method.upper(),
            "path": path,
            "summary": operation.get("summary"),
            "scope": operation.get("x-required-scope"),
        }
        for path, methods in app.openapi()["paths"].items()
        for method, operation in methods.items()
    ]


@router.get("", include_in_schema=False)
@router.get(
    "/",
    **op(None, "Discovery document", Answer(200, Discovery, "What this server offers, and where.")),
)
async def discovery(request: Request, state: Sandbox) -> JSONResponse:
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
            "sandbox": _sandbox_area(state.config),
        }
    )


def _sandbox_area(config: SandboxConfig) -> dict[str, Any]:
    """What this server is beyond the API: its levers and the faults it is set to inject."""
    return {
        "note": "A local sandbox of the Lead Data API. The levers under /_sandbox are for tests "
        "and demos; the real service has none of them.",
        "control": "/_sandbox",
        "levers": levers(),
        "faults": {
            "fault_rate": config.fault_rate,
            "fault_seed": config.fault_seed,
            "latency_ms": config.latency_ms,
            "job_seconds": config.job_seconds,
            "how": "A share fault_rate of API requests fails: half before the handler (503 with "
            "Retry-After, nothing done), half after it committed (a 502 replaces the answer, or "
            "the connection is cut). latency_ms delays every API request. Set with `leadtui "
            "sandbox --fault-rate R --fault-seed N --latency-ms MS --job-seconds S`, or "
            "`leadtui --demo --fault-rate R --latency-ms MS`.",
        },
    }
