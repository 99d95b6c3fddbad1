"""The leads table filters and sorts the rows it has loaded, and says so in its title."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from leadtui.api.models import Lead, Page
from leadtui.sandbox.leads import LeadSource, generate
from leadtui.ui.dialogs.describe import Describe
from leadtui.ui.widgets.lead_table import LeadTable
from tests.ui.screen import screen_text, wait_until

SOURCE = LeadSource("srch_view", ("Plumber",), ("France",), ("Paris", "Lyon"))


def _fetch(total: int) -> Any:
    async def fetch(cursor: str | None) -> Page[Lead]:
        start = int(cursor or 0)
        stop = min(total, start + 100)
        items = [Lead.model_validate(r) for r in generate(SOURCE, start, stop)]
        return Page[Lead](items=items, next_cursor=str(stop) if stop < total else None)

    return fetch


class Harness(App[None]):
    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total

    def compose(self) -> ComposeResult:
        yield LeadTable()

    def on_mount(self) -> None:
        table = self.query_one(LeadTable)
        table.load(_fetch(self.total), self.total)
        table.focus()


def _table(app: Any) -> LeadTable:
    return app.query_one(LeadTable)


def _body(app: Any) -> list[str]:
    return [line for line in screen_text(app).splitlines() if "srch_view-" in line]


async def test_filter_the_loaded_leads_then_clear() -> None:
    app = Harness(250)
    async with app.run_test(size=(120, 30)) as pilot:
        table = _table(app)
        await pilot.press("G")  # walks every page in
        await wait_until(pilot, lambda: "srch_view-000250" in screen_text(app))
        lyon = sum(1 for r in generate(SOURCE, 0, 250) if "lyon" in str(r.values()).lower())
        await pilot.press("slash", *"lyon")
        await wait_until(pilot, lambda: f"{lyon} of 250 shown · filter: lyon" in screen_text(app))
        assert _body(app)
        assert all("lyon" in line.lower() for line in _body(app))
        await pilot.press("enter", "G")
        assert table.cursor_row == lyon - 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: "shown" not in screen_text(app))
        assert table.shown.row_count == 250


async def test_a_part_loaded_list_says_it_sorts_what_is_loaded() -> None:
    app = Harness(1_000)
    async with app.run_test(size=(120, 30)) as pilot:
        table = _table(app)
        await wait_until(pilot, lambda: "srch_view-000001" in screen_text(app))
        column = table.rows.columns.index("rating")
        for _ in range(column):
            await pilot.press("right")
        await pilot.press("s")
        await wait_until(pilot, lambda: "sorted by rating ▲ (the 100 loaded)" in screen_text(app))
        assert "rat… ▲" in screen_text(app).splitlines()[1]
        ratings = [r["rating"] for r in generate(SOURCE, 0, 100)]
        first = table.current_record()
        assert first is not None
        assert first["rating"] == min(ratings)
        await pilot.press("s")
        await wait_until(pilot, lambda: "sorted by rating ▼" in screen_text(app))
        top = table.current_record()
        assert top is not None
        assert top["rating"] == max(ratings)
        await pilot.press("I")
        assert app.clipboard == top["leadId"]
        await pilot.press("D")
        await wait_until(pilot, lambda: f'"leadId": "{top["leadId"]}",' in screen_text(app))
        assert isinstance(app.screen, Describe)


async def test_columns_scroll_whole_and_a_cut_value_shows_under_the_table() -> None:
    app = Harness(1_000)
    async with app.run_test(size=(80, 24)) as pilot:
        table = _table(app)
        await wait_until(pilot, lambda: "srch_view-000001" in screen_text(app))
        names = set(table.rows.columns)
        for _ in range(len(names)):
            await pilot.press("right")
            header = screen_text(app).splitlines()[1].strip("│ ")
            assert set(header.split()) <= names | {"…"}, header
        assert table.rows.columns[table.cursor_col] == table.rows.columns[-1]
        # A value wider than its column (learned from the first page) is whole under the table.
        records = generate(SOURCE, 0, 1_000)
        address = table.rows.columns.index("address")
        width = table.rows.widths[address]
        row = next(i for i, r in enumerate(records) if len(r["address"]) > width)
        table.move_to(row)
        await wait_until(pilot, lambda: table.current_record() is not None)
        for _ in range(len(names)):
            await pilot.press("left")
        for _ in range(address):
            await pilot.press("right")
        await wait_until(pilot, lambda: f"address: {records[row]['address']}" in screen_text(app))
