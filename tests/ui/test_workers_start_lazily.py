"""No coroutine is left un-awaited, whatever the timing: work handed to a worker or a timer
is a callable, never a coroutine object made before it is known to run.

A coroutine made eagerly (`run_worker(self.tick())`) is never awaited when the worker is
cancelled before it starts (the app quitting at once, an exclusive worker replaced), and
Python reports "coroutine … was never awaited" as the app exits.
"""

from __future__ import annotations

import ast
import gc
import warnings
from pathlib import Path
from typing import Any

from leadtui.ui.frame.spend_flow import offer_pending_spends
from tests.ui.pilot import settle

ROOT = Path(__file__).resolve().parents[2]
# Calls that keep what they are given to run later (the position of that argument): it must
# not be a coroutine already.
DEFERRING = {
    "run_worker": 0,
    "start_worker": 1,
    "call_later": 0,
    "call_after_refresh": 0,
    "call_next": 0,
    "set_timer": 1,
    "set_interval": 1,
}
# Calls that make a callable, not a coroutine.
MAKES_CALLABLES = {"partial"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _eager_work(source: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and _name(node.func) in DEFERRING):
            continue
        where = DEFERRING[_name(node.func)]
        work = node.args[where] if len(node.args) > where else None
        work = work or next((k.value for k in node.keywords if k.arg in ("work", "callback")), None)
        if isinstance(work, ast.Call) and _name(work.func) not in MAKES_CALLABLES:
            found.append(f"{source.relative_to(ROOT)}:{node.lineno}")
    return found


def test_deferred_work_is_handed_over_as_a_callable() -> None:
    files = [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]
    eager = [place for source in files for place in _eager_work(source)]
    assert eager == [], "a coroutine made before its worker runs: pass a callable (partial)"


async def test_an_offer_cancelled_before_it_starts_leaves_no_coroutine_behind(
    build_app: Any,
) -> None:
    app = build_app()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            offer_pending_spends(app)
            # The app quits in the same frame, before the worker's task has run a step.
            app.workers.cancel_group(app, "pending-spends")
            await settle(pilot)
        gc.collect()
    unawaited = [str(w.message) for w in seen if "never awaited" in str(w.message)]
    assert unawaited == []
