"""`/_sandbox/...`: levers for tests and demos, outside /api/v1 and never in the real API."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from leadtui.api.contract import ExportStatus, ExtractionStatus
from leadtui.sandbox.accounts import DEMO_KEYS
from leadtui.sandbox.clock import iso
from leadtui.sandbox.domain.exports import fail_export
from leadtui.sandbox.domain.extractions import move
from leadtui.sandbox.domain.jobs import StoredState
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.problems import not_found
from leadtui.sandbox.state import Sandbox
from leadtui.sandbox.store import load_row

router = APIRouter(prefix="/_sandbox", include_in_schema=False, route_class=StrictJsonRoute)


class AccountChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credits: int | None = Field(default=None, ge=0)
    subscription_status: Literal["active", "inactive"] | None = None
    access_status: Literal["active", "suspended"] | None = None
    extraction_quota: int | None = Field(default=None, ge=0)


class PricingChange(BaseModel):
    """What searches state as their price, and what an unlock really debits per result."""

    model_config = ConfigDict(extra="forbid")

    stated: Any = None  # any JSON value: 5, 0, -1, true, "5"; with omit_stated, left out
    omit_stated: bool = False
    charged: int | None = Field(default=None, ge=1)
    omit_debited: bool | None = None


class TrafficChange(BaseModel):
    """`--latency-ms` and `--fault-rate` changed while it runs; a field left out is kept."""

    model_config = ConfigDict(extra="forbid")

    latency_ms: int | None = Field(default=None, ge=0, le=60_000)
    fault_rate: float | None = Field(default=None, ge=0, le=1)


class ClockChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    advance: float | None = None  # seconds to move forward
    freeze: bool | None = None  # True: stop time where it is; False: let it run again


@router.post("/reset")
async def reset(state: Sandbox) -> dict[str, Any]:
    """Forget every change: accounts, searches, jobs and the request log as at the start."""
    state.reset()
    return {"data": {"reset": True}}


@router.get("/requests")
async def requests_log(state: Sandbox) -> dict[str, Any]:
    """The last requests under /api/v1: method, path, status, idempotency key, fault."""
    with state.lock:
        records = [asdict(record) for record in state.requests]
    return {"data": records}


@router.get("/keys")
async def keys() -> dict[str, Any]:
    """The demo keys, their accounts, states and scopes."""
    return {
        "data": [
            {
                "key": k.secret,
                "account_id": k.account_id,
                "label": k.label,
                "state": k.state,
                "scopes": sorted(str(s) for s in k.scopes),
            }
            for k in DEMO_KEYS
        ]
    }


@router.patch("/accounts/{account_id}")
async def change_account(state: Sandbox, account_id: str, body: AccountChange) -> dict[str, Any]:
    """Set an account's credits, subscription, data access or extraction quota."""
    with state.store.transaction() as conn:
        for column, value in body.model_dump(exclude_none=True).items():
            conn.execute(
                f"UPDATE accounts SET {column} = ? WHERE id = ?",  # noqa: S608 - model fields
                (value, account_id),
            )
        row = conn.execute("SELECT * FROM accounts WHERE id = ?", (account_id,)).fetchone()
    if row is None:  # no such account: nothing was updated
        raise not_found(f"Account '{account_id}'")
    return {"data": dict(row)}


@router.put("/pricing")
async def change_pricing(state: Sandbox, body: PricingChange) -> dict[str, Any]:
    """Searches state `stated` (omitted with `omit_stated`); unlocks debit `charged` per
    result and say so in `credits_debited` (left out with `omit_debited`). A field left out
    of the body keeps its value."""
    for name, value in body.model_dump(exclude_unset=True).items():
        # `stated` may be any JSON value, null too; a null `charged` or `omit_debited` keeps it.
        if value is not None or name == "stated":
            setattr(state.pricing, name, value)
    return {"data": asdict(state.pricing)}


@router.patch("/traffic")
async def change_traffic(state: Sandbox, body: TrafficChange) -> dict[str, Any]:
    """Make the API slower or faster, more or less faulty, while it runs."""
    config = state.config
    for name, value in body.model_dump(exclude_none=True).items():
        setattr(config, name, value)
    return {"data": {"latency_ms": config.latency_ms, "fault_rate": config.fault_rate}}


@router.get("/clock")
async def get_clock(state: Sandbox) -> dict[str, Any]:
    """The sandbox's time, which jobs move by."""
    now = state.now()
    return {"data": {"now": now, "iso": iso(now)}}


@router.post("/clock")
async def change_clock(state: Sandbox, body: ClockChange) -> dict[str, Any]:
    """Move the sandbox's time on (`advance` seconds), or freeze and unfreeze it."""
    clock = state.clock
    if body.freeze is True:
        clock.freeze()
    elif body.freeze is False:
        clock.unfreeze()
    if body.advance:
        clock.advance(body.advance)
    now = clock.now()
    return {"data": {"now": now, "iso": iso(now)}}


def levers() -> list[dict[str, str]]:
    """Every lever under /_sandbox (method, path, what it does), for the discovery document."""
    found = []
    for route in router.routes:
        if isinstance(route, APIRoute):
            summary = (route.endpoint.__doc__ or "").strip().split("\n")[0]
            for method in sorted(route.methods or ()):
                found.append({"method": method, "path": route.path, "summary": summary})
    return found


@router.post("/exports/{export_id}/fail")
async def force_export_failure(state: Sandbox, export_id: str) -> dict[str, Any]:
    """A queued or processing export becomes failed (to exercise retry)."""
    with state.store.transaction() as conn:
        row = load_row(conn, "exports", export_id)
        fail_export(conn, row, state.now(), state.config.job_seconds)
    return {"data": {"exportId": export_id, "status": ExportStatus.FAILED}}


@router.post("/extractions/{extraction_id}/fail")
async def force_extraction_failure(state: Sandbox, extraction_id: str) -> dict[str, Any]:
    """A queued, running or paused extraction becomes failed."""
    with state.store.transaction() as conn:
        row = load_row(conn, "extractions", extraction_id)
        move(conn, row, StoredState.FAILED, state.now(), state.config.job_seconds)
    return {"data": {"extractionId": extraction_id, "status": ExtractionStatus.FAILED}}
