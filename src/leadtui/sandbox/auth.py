"""Bearer keys, account status and scopes, in the order the spec's statuses imply:
401 for the key itself, then 403 for the account, then 403 for a missing scope."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from fastapi import Request

from leadtui.api.contract import ErrorCode, Scope
from leadtui.sandbox.accounts import KEYS_BY_SECRET, DemoKey
from leadtui.sandbox.clock import day_of
from leadtui.sandbox.domain.ledger import count_usage
from leadtui.sandbox.problems import ApiProblem
from leadtui.sandbox.state import Sandbox, SandboxState

_UNUSABLE: Final = {"revoked": "The key has been revoked.", "expired": "The key has expired."}


def _unauthorized(message: str) -> ApiProblem:
    return ApiProblem(
        401, ErrorCode.UNAUTHORIZED, message, {"WWW-Authenticate": 'Bearer realm="api"'}
    )


def authenticate(request: Request, state: SandboxState) -> DemoKey:
    """The calling key (never its secret in output), once its account may use the API."""
    header = request.headers.get("authorization")
    if header is None:
        raise _unauthorized("Send the key as 'Authorization: Bearer <API_KEY>'.")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise _unauthorized("The Authorization header is malformed; use 'Bearer <API_KEY>'.")
    key = KEYS_BY_SECRET.get(secret.strip())
    if key is None:
        raise _unauthorized("The key is not valid.")
    if key.state != "active":
        raise _unauthorized(_UNUSABLE[key.state])
    with state.store.reading() as conn:
        account = conn.execute(
            "SELECT subscription_status, access_status FROM accounts WHERE id = ?",
            (key.account_id,),
        ).fetchone()
    if account is None:
        raise _unauthorized("The key's account no longer exists.")
    if account["subscription_status"] != "active":
        raise ApiProblem(
            403, ErrorCode.SUBSCRIPTION_INACTIVE, "The account's subscription is not active."
        )
    if account["access_status"] != "active":
        raise ApiProblem(
            403, ErrorCode.DATA_ACCESS_SUSPENDED, "Data access is suspended for this account."
        )
    return key


def require(scope: Scope) -> Callable[[Request, SandboxState], Awaitable[DemoKey]]:
    """A dependency: the caller, if its key carries `scope`; the request is counted in /usage."""

    async def dependency(request: Request, state: Sandbox) -> DemoKey:
        key = authenticate(request, state)
        if scope not in key.scopes:
            raise ApiProblem(
                403,
                ErrorCode.INSUFFICIENT_SCOPE,
                f"This operation needs the scope '{scope}', which the key does not have.",
            )
        with state.store.transaction() as conn:
            count_usage(conn, key.account_id, day_of(state.now()), requests=1)
        return key

    return dependency
