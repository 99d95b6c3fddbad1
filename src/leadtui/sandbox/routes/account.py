"""The authenticated account: identity (`/me`) and 30-day usage (`/usage`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, Scope
from leadtui.api.models import USAGE_WINDOW_DAYS
from leadtui.sandbox.auth import Principal, op, require
from leadtui.sandbox.records import EXTRACTION_LAUNCH_COST, PRICE_PER_RESULT
from leadtui.sandbox.state import sandbox_of

router = APIRouter(prefix=API_PREFIX, tags=["account"])

UsageReader = Annotated[Principal, Depends(require(Scope.USAGE_READ))]


def _account(request: Request, who: Principal) -> Any:
    with sandbox_of(request).store.reading() as conn:
        return conn.execute("SELECT * FROM accounts WHERE id = ?", (who.account_id,)).fetchone()


def _access(row: Any) -> dict[str, str]:
    status = "active"
    if row["subscription_status"] != "active":
        status = "inactive"
    elif row["access_status"] != "active":
        status = "suspended"
    return {"status": status}


@router.get("/me", **op(Scope.USAGE_READ, summary="The authenticated account and key"))
async def me(request: Request, who: UsageReader) -> JSONResponse:
    row = _account(request, who)
    quota, used = int(row["extraction_quota"]), int(row["launches_used"])
    data = {
        "account": {"id": row["id"], "name": row["name"]},
        "credits": int(row["credits"]),
        "subscription": {"status": row["subscription_status"], "plan": "sandbox"},
        "access": _access(row),
        "scopes": sorted(str(scope) for scope in who.scopes),
        "key": {"id": who.key.key_id, "label": who.key.label, "expires_at": None},
        "price_per_result": PRICE_PER_RESULT,
        "extraction_launches": {
            "quota": quota,
            "used": used,
            "remaining": max(0, quota - used),
            "cost_per_launch": EXTRACTION_LAUNCH_COST,
        },
    }
    return JSONResponse({"data": data})


@router.get("/usage", **op(Scope.USAGE_READ, summary="30-day usage, credits, access status"))
async def usage(request: Request, who: UsageReader) -> JSONResponse:
    state = sandbox_of(request)
    today = datetime.fromtimestamp(state.now(), UTC).date()
    days = [
        (today - timedelta(days=back)).isoformat() for back in range(USAGE_WINDOW_DAYS - 1, -1, -1)
    ]
    with state.store.reading() as conn:
        rows = conn.execute(
            "SELECT day, requests, credits_used FROM usage WHERE account_id = ? AND day >= ?",
            (who.account_id, days[0]),
        ).fetchall()
    by_day = {row["day"]: (int(row["requests"]), int(row["credits_used"])) for row in rows}
    daily: list[dict[str, Any]] = [
        {
            "date": day,
            "requests": by_day.get(day, (0, 0))[0],
            "credits_used": by_day.get(day, (0, 0))[1],
        }
        for day in days
    ]
    account = _account(request, who)
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
