"""`leadtui mcp`: serve the tools over stdio until the client closes the connection.

The SDK loads in a thread while a reader thread takes the client's messages; until it has
loaded, `initialize` and `tools/list` are answered from the manifest (see `handshake.py`) and
every message is kept; then the SDK serves them all, in order, and the rest as they come. A
tool call sent however early is answered by the SDK once it is there.
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

# What the inbox holds besides the client's lines: the SDK has loaded; standard input ended.
LOADED: Final = object()
ENDED: Final = object()


class _Loader(threading.Thread):
    """Imports the server (and so the SDK), then says so in the inbox."""

    def __init__(self, inbox: queue.Queue[object]) -> None:
        super().__init__(name="leadtui-mcp-loader", daemon=True)
        self.inbox = inbox
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            importlib.import_module("leadtui.mcp.server")
        except BaseException as exc:  # re-raised on the main thread
            self.error = exc
        finally:
            self.inbox.put(LOADED)


class _Reader(threading.Thread):
    """Every line of standard input into the inbox, then ENDED."""

    def __init__(self, stdin: BinaryIO, inbox: queue.Queue[object]) -> None:
        super().__init__(name="leadtui-mcp-reader", daemon=True)
        self.stdin = stdin
        self.inbox = inbox

    def run(self) -> None:
        try:
            for line in iter(self.stdin.readline, b""):
                self.inbox.put(line)
        except (OSError, ValueError):  # closed under us: the session is over
            pass
        finally:
            self.inbox.put(ENDED)


class _Inbox:
    """The client's lines for the SDK: those kept while it loaded, then the rest as they come."""

    def __init__(self, kept: list[bytes], inbox: queue.Queue[object], ended: bool) -> None:
        self._kept = kept
        self._inbox = inbox
        self._ended = ended

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        import anyio.to_thread

        for line in self._kept:
            yield line.decode("utf-8", errors="replace")
        while not self._ended:
            item = await anyio.to_thread.run_sync(self._inbox.get, abandon_on_cancel=True)
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


def _until_loaded(
    stdin: BinaryIO, stdout: BinaryIO
) -> tuple[_Loader, EarlyAnswers, list[bytes], queue.Queue[object], bool]:
    """Load the SDK while answering what the manifest can: the loader, the early answers, the
    lines kept for the SDK, the inbox, and whether standard input has ended."""
    inbox: queue.Queue[object] = queue.Queue()
    loader = _Loader(inbox)
    loader.start()
    _Reader(stdin, inbox).start()
    early = EarlyAnswers(Manifest.read())
    kept: list[bytes] = []
    ended = False
    while (item := inbox.get()) is not LOADED:
        if not isinstance(item, bytes):
            ended = True
            continue
        kept.append(item)
        answer = early.answer(item)
        if answer is not None:
            stdout.write(answer)
            stdout.flush()
    return loader, early, kept, inbox, ended


def _serve(ns: argparse.Namespace, deps: McpDeps | None) -> int:
    """Serve until the client closes stdin (0)."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    loader, early, kept, inbox, ended = _until_loaded(stdin, stdout)
    if loader.error is not None:
        raise loader.error

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
                    _Inbox(kept, inbox, ended),  # type: ignore[arg-type]
                    _Outbox(stdout, early),  # type: ignore[arg-type]
                ) as (read, write):
                    await server.serve(read, write)
                group.cancel_scope.cancel()
        finally:
            await runtime.aclose()

    anyio.run(serve)
    return 0
