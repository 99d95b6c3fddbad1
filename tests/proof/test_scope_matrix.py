"""The whole scope matrix in one table: every operation of the spec (24) × every demo key (7).

tests/sandbox/test_auth.py checks rows and columns of it (read-only writes, bad keys, account
states on a few operations) and lists the operations; this walks every cell.
"""

from __future__ import annotations

import httpx

from leadtui.sandbox.accounts import DEMO_KEYS
from tests.sandbox.helpers import API
from tests.sandbox.test_auth import OPERATIONS

PUBLIC_OPERATIONS = [("GET", "/", None), ("GET", "/openapi.json", None)]
ALL_OPERATIONS = PUBLIC_OPERATIONS + [(m, p, s) for m, p, s in OPERATIONS]

# What each key gets: the status and error code when it is turned away, None when it passes.
REFUSED_EVERYWHERE = {
    "sk_demo_revoked": (401, "unauthorized"),
    "sk_demo_expired": (401, "unauthorized"),
    "sk_demo_inactive": (403, "subscription_inactive"),
    "sk_demo_suspended": (403, "data_access_suspended"),
}
READ_ONLY_KEYS = {"sk_demo_readonly"}


def expected(key: str, scope: str | None) -> tuple[int, str] | None:
    if scope is None:
        return None  # discovery and the contract need no key at all
    if key in REFUSED_EVERYWHERE:
        return REFUSED_EVERYWHERE[key]
    if key in READ_ONLY_KEYS and scope.endswith(":write"):
        return (403, "insufficient_scope")
    return None


async def test_every_operation_with_every_demo_key(sandbox_http: httpx.AsyncClient) -> None:
    assert len(ALL_OPERATIONS) == 24
    assert len(DEMO_KEYS) == 7
    wrong: list[str] = []
    for key in (k.secret for k in DEMO_KEYS):
        for method, path, scope in ALL_OPERATIONS:
            r = await sandbox_http.request(
                method, API + path, headers={"Authorization": f"Bearer {key}"}
            )
            want = expected(key, scope)
            if want is None:
                # Past the key and scope checks: the operation itself answers (ids are made up).
                ok = r.status_code in (200, 201, 202, 400, 404, 409)
                got = str(r.status_code)
            else:
                got_code = r.json()["error"]["code"] if r.status_code >= 400 else None
                ok = (r.status_code, got_code) == want
                got = f"{r.status_code} {got_code}"
            if not ok:
                wrong.append(f"{key} {method} {path}: got {got}, want {want or 'through'}")
    assert wrong == []
