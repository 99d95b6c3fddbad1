"""1,000 spends waiting for approval: listed from the journal and shown on Approvals, vs a floor.

The app runs against the in-process sandbox with 1,000 requests in its journal, all waiting
(asked by this process, for this app's server and account). Measured, median of `--runs`:

- the listing: `ApprovalDesk.listed()` (one query, every row read into a request), vs the
  floor of the same rows fetched by one bare SELECT with their JSON parsed;
- the screen: `A` pressed → the 1,000 rows in the Approvals table, drawn, vs the floor of the
  same 1,000 rows' cells added to a bare Textual DataTable.

    .venv/bin/python bench/bench_approvals.py [--runs 5] [--requests 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from typing import Any

import httpx
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from leadtui.api.client import LeadClient
from leadtui.config.settings import Settings
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.spend.account import SpendAccount
from leadtui.spend.approvals import ApprovalDesk, Party
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.frame.app import make_app
from leadtui.ui.frame.services import AppDeps
from leadtui.ui.screens.approvals import COLUMNS, ApprovalsScreen

BASE_URL = "http://127.0.0.1"
DEMO = SpendAccount("…full", "acct_demo", "Demo Co")
SIZE = (120, 40)


def ask_many(journal: SpendJournal, count: int) -> None:
    desk = ApprovalDesk(journal)
    asker = Party.here("agent", "bench agent")
    for _ in range(count):
        quote = Quote.unlock_at("srch_000001", 40, 1, 10_000)
        request = SpendRequest.for_unlock(quote, "srch_000001")
        desk.ask(
            request,
            asker=asker,
            wait_seconds=900,
            profile="default",
            origin=BASE_URL,
            account=DEMO,
        )


def floor_rows(journal: SpendJournal) -> list[tuple[str, ...]]:
    """The same rows by one bare SELECT, their JSON parsed: what any listing must pay."""
    with journal.reading() as db:
        rows = db.execute("SELECT id, request, progress FROM approval_requests").fetchall()
    cells = []
    for row in rows:
        doc = json.loads(row["request"])
        cells.append((row["progress"], doc["asker"]["name"], str(doc["quote"]["total"])))
    return cells


def timed(work: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class FloorApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable(id="t")


async def floor_screen(rows: list[tuple[str, ...]]) -> float:
    app = FloorApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(DataTable)
        table.add_columns(*COLUMNS)
        start = time.perf_counter()
        table.add_rows([(*row, "", "", "", "") for row in rows])
        await pilot.pause()
        return time.perf_counter() - start


async def app_screen(count: int) -> float:
    sandbox = httpx.ASGITransport(app=create_app(SandboxConfig(job_seconds=0.3)))

    def connect(base_url: str, api_key: str) -> LeadClient:
        return LeadClient(base_url, api_key, transport=sandbox, max_retries=0)

    deps = AppDeps(
        settings=Settings(), save_settings=lambda _s: None, base_url=BASE_URL, connect=connect
    )
    app = make_app(deps, key="sk_demo_full", key_source="demo")
    async with app.run_test(size=SIZE) as pilot:
        while app.approvals_waiting < count:  # the watch listed them once, at start
            await pilot.pause(0.05)
        start = time.perf_counter()
        await pilot.press("A")
        while not (isinstance(app.screen, ApprovalsScreen) and len(app.screen.rows) == count):
            await pilot.pause(0)
        await pilot.pause()
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["XDG_STATE_HOME"] = state
        journal = SpendJournal()
        ask_many(journal, args.requests)
        desk = ApprovalDesk(journal)
        listing = timed(desk.listed, args.runs)
        floor_listing = timed(lambda: floor_rows(journal), args.runs)
        rows = floor_rows(journal)
        screens = [asyncio.run(app_screen(args.requests)) for _ in range(args.runs)]
        floors = [asyncio.run(floor_screen(rows)) for _ in range(args.runs)]
    screen, floor = statistics.median(screens), statistics.median(floors)
    print(f"{args.requests:,} waiting requests, medians of {args.runs}")
    print(f"{'':28} {'leadtui':>10} {'floor':>10} {'ratio':>8}")
    print(
        f"{'listing (one query)':28} {listing * 1000:>8.1f}ms {floor_listing * 1000:>8.1f}ms "
        f"{listing / floor_listing:>7.1f}×"
    )
    print(
        f"{'A → rows on Approvals':28} {screen * 1000:>8.1f}ms {floor * 1000:>8.1f}ms "
        f"{screen / floor:>7.1f}×"
    )
    print(f"listing + screen: {(listing + screen):.2f} s (the target: under 2 s)")


if __name__ == "__main__":
    main()
