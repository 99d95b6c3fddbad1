"""The spec's Authentication and scope tables, row by row."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox.helpers import API, auth, error_code

# (method, path, scope) for every authenticated operation; ids need not exist: the scope
# check comes before the lookup.
OPERATIONS = [
    ("GET", "/me", "usage:read"),
    ("GET", "/usage", "usage:read"),
    ("GET", "/searches", "searches:read"),
    ("GET", "/searches/srch_x", "searches:read"),
    ("GET", "/searches/srch_x/results", "searches:read"),
    ("POST", "/searches", "searches:write"),
    ("POST", "/searches/srch_x/exports", "exports:write"),
    ("POST", "/exports/exp_x/retry", "exports:write"),
    ("GET", "/exports", "exports:read"),
    ("GET", "/exports/exp_x", "exports:read"),
    ("GET", "/exports/exp_x/results", "exports:read"),
    ("GET", "/exports/exp_x/download", "exports:read"),
    ("POST", "/exports/exp_x/custom-download", "exports:read"),
    ("POST", "/extractions/drafts", "extractions:write"),
    ("GET", "/extractions", "extractions:read"),
    ("POST", "/extractions", "extractions:write"),
    ("PATCH", "/extractions/ext_x/draft", "extractions:write"),
    ("POST", "/extractions/ext_x/launch", "extractions:write"),
    ("GET", "/extractions/ext_x", "extractions:read"),
    ("PATCH", "/extractions/ext_x", "extractions:write"),
    ("GET", "/extractions/ext_x/results", "extractions:read"),
    ("POST", "/extractions/ext_x/stop", "extractions:write"),
]
WRITE_OPERATIONS = [op for op in OPERATIONS if op[2].endswith(":write")]
READ_OPERATIONS = [op for op in OPERATIONS if op[2].endswith(":read")]


@pytest.mark.parametrize(("method", "path", "scope"), WRITE_OPERATIONS)
async def test_readonly_key_gets_403_naming_the_missing_scope(
    sandbox_http: httpx.AsyncClient, method: str, path: str, scope: str
) -> None:
    r = await sandbox_http.request(method, API + path, headers=auth("sk_demo_readonly"))
    assert r.status_code == 403
    assert error_code(r) == "insufficient_scope"
    assert scope in r.json()["error"]["message"]


@pytest.mark.parametrize(("method", "path", "scope"), READ_OPERATIONS)
async def test_readonly_key_passes_read_scopes(
    sandbox_http: httpx.AsyncClient, method: str, path: str, scope: str
) -> None:
    r = await sandbox_http.request(method, API + path, headers=auth("sk_demo_readonly"))
    assert r.status_code in (200, 400, 404)


@pytest.mark.parametrize(("method", "path", "scope"), OPERATIONS)
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer sk_not_a_key"},
        {"Authorization": "Bearer sk_demo_revoked"},
        {"Authorization": "Bearer sk_demo_expired"},
    ],
    ids=["missing", "basic", "empty", "unknown", "revoked", "expired"],
)
async def test_bad_keys_get_401(
    sandbox_http: httpx.AsyncClient, method: str, path: str, scope: str, headers: dict[str, str]
) -> None:
    r = await sandbox_http.request(method, API + path, headers=headers)
    assert r.status_code == 401
    assert error_code(r) == "unauthorized"
    assert "sk_" not in r.text  # the key is never echoed


@pytest.mark.parametrize(
    ("key", "code"),
    [("sk_demo_inactive", "subscription_inactive"), ("sk_demo_suspended", "data_access_suspended")],
)
@pytest.mark.parametrize(("method", "path", "scope"), OPERATIONS[:3])
async def test_account_status_gets_403(
    sandbox_http: httpx.AsyncClient, key: str, code: str, method: str, path: str, scope: str
) -> None:
    r = await sandbox_http.request(method, API + path, headers=auth(key))
    assert r.status_code == 403
    assert error_code(r) == code


@pytest.mark.parametrize("path", ["/", "/openapi.json"])
async def test_discovery_and_openapi_need_no_key(
    sandbox_http: httpx.AsyncClient, path: str
) -> None:
    r = await sandbox_http.get(API + path)
    assert r.status_code == 200


async def test_demo_keys_identities(sandbox_http: httpx.AsyncClient) -> None:
    full = (await sandbox_http.get(f"{API}/me", headers=auth())).json()["data"]
    ro = (await sandbox_http.get(f"{API}/me", headers=auth("sk_demo_readonly"))).json()["data"]
    low = (await sandbox_http.get(f"{API}/me", headers=auth("sk_demo_low"))).json()["data"]
    assert full["account"]["name"] == ro["account"]["name"] == "Demo Co"
    assert full["credits"] == 10_000
    assert low["credits"] == 5
    assert full["subscription"]["status"] == "active"
    assert len(full["scopes"]) == 7
    assert sorted(ro["scopes"]) == [
        "exports:read",
        "extractions:read",
        "searches:read",
        "usage:read",
    ]
    assert low["account"]["name"] == "Lowball Ltd"
    assert len(low["scopes"]) == 7


async def test_another_accounts_resource_is_404(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post(
        f"{API}/searches",
        headers=auth("sk_demo_low"),
        json={
            "activities": [{"name": "a"}],
            "countries": [{"name": "b"}],
            "localisations": [{"name": "c"}],
        },
    )
    search_id = r.json()["data"]["searchId"]
    r = await sandbox_http.get(f"{API}/searches/{search_id}", headers=auth())
    assert r.status_code == 404
    assert error_code(r) == "not_found"


async def test_request_id_unique_and_in_header(sandbox_http: httpx.AsyncClient) -> None:
    ids = set()
    for _ in range(5):
        r = await sandbox_http.get(f"{API}/me")
        ids.add(error_code(r) and r.json()["error"]["request_id"])
    assert len(ids) == 5
