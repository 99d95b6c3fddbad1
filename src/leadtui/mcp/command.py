"""`leadtui mcp`: serve the tools over stdio until the client closes the connection.

The SDK loads in a thread while the client's first message is read and, when it is an
`initialize`, answered (see `handshake.py`); then the SDK serves from that same message on.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, NoReturn

from leadtui.mcp.handshake import EarlyAnswer, early_answer

if TYPE_CHECKING:
    from leadtui.mcp.runtime import McpDeps, Options


class _Loader(threading.Thread):
    """Imports the server (and so the SDK) while the main thread waits for the client."""

    def __init__(self) -> None:
        super().__init__(name="leadtui-mcp-loader", daemon=True)
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            importlib.import_module("leadtui.mcp.server")
        except BaseException as exc:  # re-raised on the main thread
            self.error = exc


class _Replayed:
    """Standard input as lines for the SDK: the first one (already read), then the rest."""

    def __init__(self, first: str, rest: Any) -> None:
        self._first = first
        self._rest = rest

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        if self._first:
            yield self._first
        async for line in self._rest:
            yield line


class _AnsweredOnce:
    """Standard output for the SDK, less its answer to the request answered early."""

    def __init__(self, out: Any, early: EarlyAnswer | None) -> None:
        self._out = out
        self._early = early

    async def write(self, text: str) -> None:
        if self._early is not None and self._early.answers(text):
            self._early = None
            return
        await self._out.write(text)

    async def flush(self) -> None:
        await self._out.flush()


def options_from(ns: argparse.Namespace) -> Options:
    from leadtui.mcp.runtime import Options

    return Options(
        profile=getattr(ns, "profile", None),
        base_url=getattr(ns, "base_url", None),
        max_credits=ns.max_credits,
        max_launches=ns.max_launches,
        approve_in_app=getattr(ns, "approve_in_app", False),
        approval_timeout=getattr(ns, "approval_timeout", None),
    )


def options_refusal(ns: argparse.Namespace) -> str | None:
    """Why the options cannot serve (checked as the command line checks its own), or None."""
    seconds = getattr(ns, "approval_timeout", None)
    if seconds is None:
        return None
    from leadtui.spend.approval_wait import check_wait_seconds

    try:
        check_wait_seconds(seconds)
    except ValueError as exc:
        return f"--approval-timeout {seconds:g}: {exc}."
    return None


def run(ns: argparse.Namespace, deps: McpDeps | None = None) -> int:
    """Serve until stdin closes (exit 0), Ctrl-C (130) or SIGTERM (143). Raises
    ModuleNotFoundError (`mcp`) without the extra, before anything is answered."""
    if importlib.util.find_spec("mcp") is None:
        raise ModuleNotFoundError("No module named 'mcp'", name="mcp")
    refusal = options_refusal(ns)
    if refusal is not None:
        sys.stderr.write(f"leadtui mcp: {refusal}\n")
        return 2
    try:
        return _serve(ns, deps)
    except KeyboardInterrupt:  # before serving: nothing was in flight
        return 130


def _stopped(signum: int, in_flight: str | None) -> NoReturn:
    """Ctrl-C or SIGTERM while serving: say what is left pending, and exit at once. (A thread
    reading stdin would hold a graceful exit until the client wrote; the journal is durable.)"""
    if in_flight is not None:
        sys.stderr.write(
            "leadtui mcp stopped while a spend was being sent: it is journaled as pending under "
            f"the idempotency key {in_flight} (`leadtui pending` shows it; resending it never "
            "debits twice).\n"
        )
        sys.stderr.flush()
    os._exit(130 if signum == signal.SIGINT else 143)


def _serve(ns: argparse.Namespace, deps: McpDeps | None) -> int:
    """Serve until the client closes stdin (0)."""
    loader = _Loader()
    loader.start()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    first = stdin.readline()
    early = early_answer(first)
    if early is not None:
        stdout.write(early.line())
        stdout.flush()
    loader.join()
    if loader.error is not None:
        raise loader.error

    import anyio
    from mcp.server.stdio import stdio_server

    from leadtui.mcp.runtime import McpDeps, Runtime
    from leadtui.mcp.server import build_server

    runtime = Runtime(options_from(ns), deps or McpDeps())
    server = build_server(runtime)

    async def on_signals() -> None:
        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                _stopped(signum, runtime.sending)

    async def serve() -> None:
        lines = anyio.wrap_file(io.TextIOWrapper(stdin, encoding="utf-8", errors="replace"))
        out = anyio.wrap_file(io.TextIOWrapper(stdout, encoding="utf-8"))
        first_line = first.decode("utf-8", errors="replace")
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(on_signals)
                async with stdio_server(
                    _Replayed(first_line, lines),  # type: ignore[arg-type]
                    _AnsweredOnce(out, early),  # type: ignore[arg-type]
                ) as (read, write):
                    await server.serve(read, write)
                group.cancel_scope.cancel()
        finally:
            await runtime.aclose()

    anyio.run(serve)
    return 0
