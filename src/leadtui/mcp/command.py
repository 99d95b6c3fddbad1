"""`leadtui mcp`: serve the tools over stdio until the client closes the connection.

The SDK loads in a thread while a reader thread keeps the client's messages (answering what the
manifest can: `handshake.py`); then the SDK serves them all, in order, and the rest as they come.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import queue
import signal
import sys
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, BinaryIO, Final, NoReturn

from leadtui.mcp.handshake import EarlyAnswers, Manifest

if TYPE_CHECKING:
    from leadtui.mcp.runtime import McpDeps, Options

# What the inbox holds besides the client's lines (and what loading raised): the SDK has
# loaded; standard input ended.
LOADED: Final = object()
ENDED: Final = object()


def _load(inbox: queue.Queue[object]) -> None:
    """Import the server (and so the SDK), then put LOADED in the inbox, or what it raised."""
    try:
        importlib.import_module("leadtui.mcp.server")
    except BaseException as exc:  # raised on the main thread
        inbox.put(exc)
    else:
        inbox.put(LOADED)


def _read(stdin: BinaryIO, inbox: queue.Queue[object]) -> None:
    """Every line of standard input into the inbox, then ENDED."""
    try:
        for line in iter(stdin.readline, b""):
            inbox.put(line)
    except (OSError, ValueError):  # closed under us: the session is over
        pass
    finally:
        inbox.put(ENDED)


async def _lines_for_the_sdk(
    kept: list[bytes], inbox: queue.Queue[object], ended: bool
) -> AsyncIterator[str]:
    """The client's lines: those kept while the SDK loaded, then the rest as they come."""
    import anyio.to_thread

    for line in kept:
        yield line.decode("utf-8", errors="replace")
    while not ended:
        item = await anyio.to_thread.run_sync(inbox.get, abandon_on_cancel=True)
        if not isinstance(item, bytes):
            return
        yield item.decode("utf-8", errors="replace")


class _Outbox:
    """Standard output for the SDK, less its answers to the requests answered early."""

    def __init__(self, out: BinaryIO, early: EarlyAnswers) -> None:
        self._out = out
        self._early = early

    async def write(self, text: str) -> None:
        import anyio.to_thread

        if not self._early.answered(text):
            await anyio.to_thread.run_sync(self._out.write, text.encode("utf-8"))

    async def flush(self) -> None:
        import anyio.to_thread

        await anyio.to_thread.run_sync(self._out.flush)


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


def run(ns: argparse.Namespace, deps: McpDeps | None = None) -> int:
    """Serve until stdin closes (exit 0), Ctrl-C (130) or SIGTERM (143). Raises
    ModuleNotFoundError (`mcp`) without the extra, before anything is answered."""
    if importlib.util.find_spec("mcp") is None:
        raise ModuleNotFoundError("No module named 'mcp'", name="mcp")
    seconds = getattr(ns, "approval_timeout", None)
    if seconds is not None:  # checked as the command line checks its own
        from leadtui.spend.approval_wait import check_wait_seconds

        try:
            check_wait_seconds(seconds)
        except ValueError as exc:
            sys.stderr.write(f"leadtui mcp: --approval-timeout {seconds:g}: {exc}.\n")
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


def _until_loaded(
    stdin: BinaryIO, stdout: BinaryIO
) -> tuple[EarlyAnswers, list[bytes], queue.Queue[object], bool]:
    """Load the SDK while answering what the manifest can: the early answers, the lines kept
    for the SDK, the inbox, and whether standard input has ended."""
    inbox: queue.Queue[object] = queue.Queue()
    for work, args in ((_load, (inbox,)), (_read, (stdin, inbox))):
        threading.Thread(target=work, args=args, name="leadtui-mcp", daemon=True).start()
    early = EarlyAnswers(Manifest.read())
    kept: list[bytes] = []
    ended = False
    while (item := inbox.get()) is not LOADED:
        if isinstance(item, BaseException):
            raise item
        if not isinstance(item, bytes):
            ended = True
            continue
        kept.append(item)
        answer = early.answer(item)
        if answer is not None:
            stdout.write(answer)
            stdout.flush()
    return early, kept, inbox, ended


def _serve(ns: argparse.Namespace, deps: McpDeps | None) -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    early, kept, inbox, ended = _until_loaded(stdin, stdout)

    import anyio
    from mcp.server.stdio import stdio_server

    from leadtui.mcp.runtime import McpDeps, Runtime
    from leadtui.mcp.server import build_server

    runtime = Runtime(options_from(ns), deps or McpDeps())
    server = build_server(runtime)

    async def on_signals() -> None:
        from leadtui.spend.approval_wait import end_waits

        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                await end_waits(signum)  # a wait for the app withdraws and answers first
                _stopped(signum, runtime.sending)

    async def serve() -> None:
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(on_signals)
                async with stdio_server(
                    _lines_for_the_sdk(kept, inbox, ended),  # type: ignore[arg-type]
                    _Outbox(stdout, early),  # type: ignore[arg-type]
                ) as (read, write):
                    await server.serve(read, write)
                group.cancel_scope.cancel()
        finally:
            await runtime.aclose()

    anyio.run(serve)
    return 0
