"""`leadtui mcp`: serve the tools over stdio until the client closes the connection."""

from __future__ import annotations

import argparse

import anyio

from leadtui.mcp.runtime import McpDeps, Options, Runtime
from leadtui.mcp.server import build_server


def options_from(ns: argparse.Namespace) -> Options:
    return Options(
        profile=getattr(ns, "profile", None),
        base_url=getattr(ns, "base_url", None),
        max_credits=ns.max_credits,
        max_launches=ns.max_launches,
    )


def run(ns: argparse.Namespace, deps: McpDeps | None = None) -> int:
    """Serve until stdin closes; exit 0."""
    runtime = Runtime(options_from(ns), deps or McpDeps())
    server = build_server(runtime)

    async def serve() -> None:
        try:
            await server.run_stdio_async()
        finally:
            await runtime.aclose()

    anyio.run(serve)
    return 0
