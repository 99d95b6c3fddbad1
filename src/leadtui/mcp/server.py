"""The tool server: the SDK's MCPServer with leadtui's tools, and one rule for every failure:
an `isError` result with an `error.code` (bad arguments with each field's reason, never the
value; a server error with its code and request id; anything unforeseen as `unexpected`,
logged without a traceback reaching the client), after which the server keeps serving.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, InputRequiredResult, Tool
from pydantic import ValidationError

from leadtui import __version__
from leadtui.api.errors import LeadError
from leadtui.api.guidance import UNEXPECTED
from leadtui.api.reasons import field_reasons
from leadtui.mcp import changing, handshake, reading, spend_tools
from leadtui.mcp.results import ToolFailure, from_lead_error, invalid
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import with_errors

log = logging.getLogger(__name__)


def failure_of(error: BaseException, tool: str) -> ToolFailure:
    """What a tool's failure tells the client: its code and reasons, nothing more."""
    if isinstance(error, ToolFailure):
        return error
    if isinstance(error, ValidationError):
        reasons = field_reasons(error)
        listed = "; ".join(f"{r['field']}: {r['reason']}" for r in reasons)
        return invalid(f"The arguments of {tool} break {len(reasons)} rule(s): {listed}.", reasons)
    if isinstance(error, LeadError):
        return from_lead_error(error)
    if type(error) is ToolError:  # the SDK's own words (an unknown tool): they hold no value
        return invalid(f"{error}.")
    log.error("%s failed unexpectedly (%s)", tool, type(error).__name__)
    return ToolFailure(UNEXPECTED, f"{tool} failed unexpectedly; nothing more is known.")


class LeadToolServer(MCPServer[Any]):
    """MCPServer whose every tool failure is a structured `isError` result."""

    async def list_tools(self) -> list[Tool]:
        """The tools as the SDK lists them, each output schema admitting the error document."""
        return [
            tool.model_copy(update={"output_schema": with_errors(tool.output_schema)})
            if tool.output_schema is not None
            else tool
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except MCPError:
            raise
        except Exception as exc:  # the SDK's ToolError, with what the tool raised as its cause
            return failure_of(exc.__cause__ or exc, name).result()

    async def serve(self, read: Any, write: Any) -> None:
        """Serve over the SDK's stdio streams (`command.py` feeds them; see handshake.py)."""
        # No public way to run an MCPServer on given streams: the SDK's own in-memory
        # transport reaches its low-level server the same way.
        low = self._lowlevel_server
        await low.run(read, write, low.create_initialization_options())


def build_server(runtime: Runtime) -> LeadToolServer:
    """The server with every tool, serving `runtime`'s profile."""
    server = LeadToolServer(
        handshake.NAME,
        title=handshake.TITLE,
        instructions=handshake.INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    reading.register(server, runtime)
    changing.register(server, runtime)
    spend_tools.register(server, runtime)
    return server
