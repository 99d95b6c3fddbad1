"""Starting a worker from a coroutine function (or a partial of one), so no coroutine exists
before it runs: `run_worker(self.tick())` cancelled before its first step (the app quitting, an
exclusive worker replaced) leaves "coroutine … was never awaited" behind. Not a plain forward:
mypy solves `run_worker`'s result for a coroutine function as `Never`; this names `Worker[None]`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker

AsyncWork = Callable[[], Coroutine[Any, Any, None]]


def start_worker(
    node: DOMNode,
    work: AsyncWork,
    *,
    group: str,
    exclusive: bool = False,
    exit_on_error: bool = True,
) -> Worker[None]:
    """`node.run_worker(work, ...)` for a coroutine function (a bound method or a partial)."""
    worker: Worker[None] = node.run_worker(
        work, group=group, exclusive=exclusive, exit_on_error=exit_on_error
    )
    return worker
