"""The authenticated account: identity (`/me`) and 30-day usage (`/usage`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, Scope
from leadtui.api.models import USAGE_WINDOW_DAYS
from leadtui.sandbox.accounts import DemoKey
from leadtui.sandbox.auth import require
from leadtui.sandbox.clock import day_of
from leadtui.sandbox.domain.ledger import EXTRACTION_LAUNCH_COST, PRICE_PER_RESULT
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.openapi.operations import Answer, op
from leadtui.sandbox.openapi.records import OneIdentity, OneUsage
from leadtui.sandbox.state import Sandbox, SandboxState

router = APIRouter(prefix=API_PREFIX, tags=["account"], route_class=StrictJsonRoute)

UsageReader = Annotated[DemoKey, Depends(require(Scope.USAGE_READ))]


def _account(state: SandboxState, who: DemoKey) -> Any:
    with state.store.reading() as conn:
        return conn.execute("SELECT * FROM accounts WHERE id = ?", (who.account_id,)).fetchone()


def _access(row: Any) -> dict[str, str]:
    status = "active"
    if row["subscription_status"] != "active":
        status = "inactive"
    elif row["access_status"] != "active":
        status = "suspended"
    return {"status": status}


@router.get(
    "/me",
    **op(
        Scope.USAGE_READ,
        "The authenticated account and key",
        Answer(200, OneIdentity, "The account, its credits, subscription and the key's scopes."),
    ),
)
async def me(state: Sandbox, who: UsageReader) -> JSONResponse:
    row = _account(state, who)
    quota, used = int(row["extraction_quota"]), int(row["launches_used"])
    data = {
        "account": {"id": row["id"], "name": row["name"]},
        "credits": int(row["credits"]),
        "subscription": {"status": row["subscription_status"], "plan": "sandbox"},
        "access": _access(row),
        "scopes": sorted(str(scope) for scope in who.scopes),
        "key": {"id": who.key_id, "label": who.label, "expires_at": None},
        "price_per_result": PRICE_PER_RESULT,
        "extraction_launches": {
            "quota": quota,
            "used": used,
            "remaining": max(0, quota - used),
            "cost_per_launch": EXTRACTION_LAUNCH_COST,
        },
    }
    return JSONResponse({"data": data})


@router.get(
    "/usage",
    **op(
        Scope.USAGE_READ,
        "30-day usage, credits, access status",
        Answer(200, OneUsage, "Totals and a daily series over the 30-day window."),
    ),
)
async def usage(state: Sandbox, who: UsageReader) -> JSONResponse:
    now = state.now()
    days = [day_of(now - back * 86_400) for back in range(USAGE_WINDOW_DAYS - 1, -1, -1)]
    with state.store.reading() as conn:
        rows = conn.execute(
            "SELECT day, requests, credits_used FROM usage WHERE account_id = ? AND day >= ?",
            (who.account_id, days[0]),
        ).fetchall()
    by_day = {row["day"]: (int(row["requests"]), int(row["credits_used"])) for row in rows}
    daily: list[dict[str, Any]] = []
    for day in days:
        requests, credits_used = by_day.get(day, (0, 0))
        daily.append({"date": day, "requests": requests, "credits_used": credits_used})
    account = _account(state, who)
    data = {
        "window_days": USAGE_WINDOW_DAYS,
        "totals": {
            "requests": sum(d["requests"] for d in daily),
            "credits_used": sum(d["credits_used"] for d in daily),
        },
        "daily": daily,
        "credits": int(account["credits"]),
        "access": _access(account),
    }
    return JSONResponse({"data": data})
