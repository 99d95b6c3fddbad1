"""Starting a worker from a coroutine function, so no coroutine exists before it runs.

`run_worker(self.tick())` makes the coroutine at once; a worker cancelled before its first step
(the app quitting, an exclusive worker replaced) never awaits it, and Python reports
"coroutine … was never awaited" as the app exits. Handing over the coroutine *function* (or a
`functools.partial` of one) lets the worker make it only when it runs.

Not a plain forward: Textual's `run_worker` cannot infer a coroutine function's result type
(mypy solves it as `Never` and refuses the call); naming `Worker[None]` here types every call.
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
