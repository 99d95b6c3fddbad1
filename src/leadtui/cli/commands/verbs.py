"""The verbs every resource shares, written once: list, results, and one record by id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from leadtui.cli.lists import show_pages
from leadtui.cli.output import Column, Rows
from leadtui.cli.runtime import Context
from leadtui.cli.waiting import Goal, wait_for

Handler = Callable[[Context], Awaitable[int]]


def list_verb(resource: str, columns: Sequence[Column]) -> Handler:
    """`<resource> list [--limit N] [--cursor C] [--all]`."""

    async def run(ctx: Context) -> int:
        await show_pages(ctx, getattr(ctx.client(), resource).list, columns)
        return 0

    return run


def results_verb(resource: str) -> Handler:
    """`<resource> results ID`: lead records, whose fields the spec does not show."""

    async def run(ctx: Context) -> int:
        api, item = getattr(ctx.client(), resource), ctx.ns.id
        await show_pages(ctx, lambda cursor, limit: api.results(item, cursor, limit), None)
        return 0

    return run


def record_verb(resource: str, method: str, rows: Rows) -> Handler:
    """`<resource> <verb> ID` answered by one record: get, retry, pause, resume, stop."""

    async def run(ctx: Context) -> int:
        record = await getattr(getattr(ctx.client(), resource), method)(ctx.ns.id)
        ctx.out.record(record, rows)
        return 0

    return run


def wait_verb(resource: str, goal: Goal, describe: Callable[[Any], str], rows: Rows) -> Handler:
    """`<resource> wait ID [--timeout S]`: the last record on stdout; exit 0 when it reached
    `goal`'s success, 3 its failure, 4 on the timeout."""

    async def run(ctx: Context) -> int:
        api, item = getattr(ctx.client(), resource), ctx.ns.id
        record, code = await wait_for(ctx, lambda: api.get(item), goal, describe, ctx.ns.timeout)
        ctx.out.record(record, rows)
        return int(code)

    return run
