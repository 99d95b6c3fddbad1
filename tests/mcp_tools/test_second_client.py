"""The whole flow through a second client implementation, fastmcp's `Client`, beside the
official SDK's `ClientSession`: a search, a spend the user is asked about (and says yes to),
and errors, each read with its code, quote and hint. `leadtui mcp` is a process on a real
sandbox, over stdio."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import mcp.types as types
import pytest
from fastmcp import Client as FastClient
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport

from tests.mcp_tools.conftest import SEARCH, Machine, Sandbox

Call = Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]]


class User:
    """Says yes to every question, and keeps what it read."""

    def __init__(self) -> None:
        self.questions: list[str] = []

    async def fastmcp(self, message: str, *_: Any) -> ElicitResult[dict[str, Any]]:
        self.questions.append(message)
        return ElicitResult(action="accept", content={"confirm": True})

    async def sdk(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})


@asynccontextmanager
async def fastmcp_client(machine: Machine, user: User | None) -> AsyncIterator[Call]:
    transport = StdioTransport(sys.executable, ["-m", "leadtui", "mcp"], env=machine.env())
    handler = user.fastmcp if user is not None else None
    async with FastClient(transport, elicitation_handler=handler) as client:

        async def call(tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
            result = await client.call_tool(tool, arguments, raise_on_error=False)
            return types.CallToolResult(
                content=result.content,
                structured_content=result.structured_content,
                is_error=result.is_error,
            )

        yield call


@asynccontextmanager
async def sdk_client(machine: Machine, user: User | None) -> AsyncIterator[Call]:
    elicitation = user.sdk if user is not None else None
    async with machine.session(elicitation=elicitation) as session:

        async def call(tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
            return await session.call_tool(tool, arguments)

        yield call


CLIENTS = {"fastmcp": fastmcp_client, "official-sdk": sdk_client}


@pytest.mark.parametrize("client", list(CLIENTS))
async def test_the_whole_flow_and_its_errors(
    machine: Machine, sandbox: Sandbox, client: str
) -> None:
    connect = CLIENTS[client]
    credits = sandbox.credits()
    user = User()
    async with connect(machine, user) as call:
        created = await call("create_search", {"request": SEARCH})
        assert not created.is_error, created.content
        search = created.structured_content or {}
        read = await call("get_search", {"search_id": search["search_id"]})
        assert (read.structured_content or {})["result_count"] == search["result_count"]

        sent = await call("unlock_results", {"search_id": search["search_id"], "results": 2})
        assert not sent.is_error, sent.content
        assert (sent.structured_content or {})["export_id"]
        assert user.questions[-1].startswith("Cost: 2 credits. Balance: ")

        missing = await call("get_export", {"export_id": "exp_nope"})
        assert missing.is_error
        error = (missing.structured_content or {})["error"]
        assert (error["code"], error["status"]) == ("not_found", 404)
        assert error["request_id"].startswith("req_")
        bad = await call("get_search", {"search_id": "../me"})
        assert (bad.structured_content or {})["error"]["code"] == "invalid_request"
    assert sandbox.credits() == credits - 2

    async with connect(machine, None) as call:  # a client that cannot ask its user
        refused = await call("unlock_results", {"search_id": search["search_id"], "results": 3})
    assert refused.is_error
    error = (refused.structured_content or {})["error"]
    assert error["code"] == "authorization_required"
    assert error["quote"]["total"] == 3
    assert "Ask the user" in error["hint"]
    assert sandbox.credits() == credits - 2
