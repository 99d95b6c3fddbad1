"""Make the manifest `handshake.py` answers from: the SDK's own answer lines to `initialize`
(each handshake version it speaks) and to the `tools/list` that follows, as the server writes
them over stdio. Run `python -m leadtui.mcp.manifest` after changing a tool, its description or
schema, or the SDK; a test fails until the file is what the SDK answers, byte for byte.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp.server.stdio import stdio_server
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from leadtui.mcp.handshake import EVERY_VERSION, INITIALIZE, LIST_TOOLS, MANIFEST_PATH, envelope
from leadtui.mcp.runtime import McpDeps, Options, Runtime
from leadtui.mcp.server import build_server

_INITIALIZE_ID = 1
_LIST_TOOLS_ID = 2


async def _opening(version: str, done: anyio.Event) -> AsyncIterator[str]:
    """Standard input for the SDK: the handshake, then the end once both answers came."""
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": _INITIALIZE_ID,
            "method": INITIALIZE,
            "params": {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "manifest", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": _LIST_TOOLS_ID, "method": LIST_TOOLS},
    ]
    for message in messages:
        yield json.dumps(message) + "\n"
    await done.wait()


class _Written:
    """Standard output for the SDK: what it answers."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.done = anyio.Event()

    async def write(self, text: str) -> None:
        self.written.append(text)
        if len(self.written) == 2:
            self.done.set()

    async def flush(self) -> None:
        return None


def _result(line: str, request_id: int) -> str:
    """The result's JSON text in an answer line the SDK wrote (checked to be that answer)."""
    prefix = envelope(request_id, "")[:-1]
    text = line.rstrip("\n")
    if not (text.startswith(prefix) and text.endswith("}")):
        raise ValueError(f"not the SDK's answer to request {request_id}: {text[:120]!r}")
    return text[len(prefix) : -1]


async def _answers(version: str) -> tuple[str, str]:
    server = build_server(Runtime(Options(), McpDeps()))
    out = _Written()
    async with stdio_server(_opening(version, out.done), out) as (read, write):  # type: ignore[arg-type]
        await server.serve(read, write)
    initialize, tools = out.written
    return _result(initialize, _INITIALIZE_ID), _result(tools, _LIST_TOOLS_ID)


def render() -> str:
    """The manifest's text: what the SDK answers now."""
    document: dict[str, dict[str, str]] = {INITIALIZE: {}, LIST_TOOLS: {}}
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        initialize, tools = anyio.run(_answers, version)
        document[INITIALIZE][version] = initialize
        document[LIST_TOOLS][version] = tools
    if len(set(document[LIST_TOOLS].values())) == 1:  # the same tools for every version
        document[LIST_TOOLS] = {EVERY_VERSION: tools}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    MANIFEST_PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {MANIFEST_PATH.name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
