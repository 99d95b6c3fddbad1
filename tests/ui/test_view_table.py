"""ViewTable: the same movement, filter, sort, describe and copy-id keys on every table."""

from __future__ import annotations

import json
from typing import Any

from textual.app import App, ComposeResult

from leadtui.ui.dialogs.describe import Describe
from leadtui.ui.widgets.view_table import ViewTable
from tests.ui.screen import screen_text, wait_until

Job = dict[str, Any]
JOBS: list[Job] = [
    {"id": f"exp_{n:03d}", "status": status, "credits": credits, "updated": updated}
    for n, (status, credits, updated) in enumerate(
        [
            ("ready", 1200, "2026-01-03T10:00:00Z"),
            ("failed", 5, "2026-01-01T09:00:00Z"),
            ("running", 80, "2026-01-02T08:00:00Z"),
        ]
        * 20,
        start=1,
    )
]


class Harness(App[None]):
    def __init__(self, complete: bool = True) -> None:
        super().__init__()
        self.complete = complete
        self.escaped = 0

    def compose(self) -> ComposeResult:
        yield ViewTable(
            "Exports",
            ("Id", "Status", "Credits", "Updated"),
            lambda job: (job["id"], job["status"], f"{job['credits']:,}", job["updated"][:10]),
            row_id=lambda job: job["id"],
            values=lambda job: (job["id"], job["status"], job["credits"], job["updated"]),
            record=lambda job: job,
        )

    def on_mount(self) -> None:
        table = self.query_one(ViewTable)
        table.set_rows(JOBS, complete=self.complete)
        table.focus()

    def key_escape(self) -> None:
        self.escaped += 1


def _table(app: Any) -> ViewTable[Job]:
    table: ViewTable[Job] = app.query_one(ViewTable)
    return table


def _focused_id(app: Any) -> str:
    row = _table(app).focused_row
    assert row is not None
    return str(row["id"])


async def test_movement_keys_reach_every_row() -> None:
    app = Harness()
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        await pilot.press("j", "j")
        assert _focused_id(app) == "exp_003"
        await pilot.press("k")
        assert _focused_id(app) == "exp_002"
        await pilot.press("G")
        assert _focused_id(app) == "exp_060"
        await pilot.press("g")
        assert _focused_id(app) == "exp_001"
        await pilot.press("end")
        assert _focused_id(app) == "exp_060"
        await pilot.press("home", "ctrl+d")
        half = _table(app).cursor_row
        assert half > 1
        await pilot.press("ctrl+u")
        assert _focused_id(app) == "exp_001"
        await pilot.press("pagedown")
        assert _table(app).cursor_row > half
        await wait_until(pilot, lambda: _focused_id(app) in screen_text(app))


async def test_filter_in_the_title_negates_and_esc_clears_then_goes_on() -> None:
    app = Harness()
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"fail")
        await wait_until(
            pilot, lambda: "/fail▏ · 20 of 60 shown · filter: fail" in screen_text(app)
        )
        assert "running" not in screen_text(app)
        # While typing, letters are text: `G` and `s` do not move or sort.
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"!ready", "enter")
        await wait_until(
            pilot, lambda: "Exports · 40 of 60 shown · filter: !ready" in screen_text(app)
        )
        assert not [line for line in screen_text(app).splitlines() if "ready " in line[1:30]]
        await pilot.press("escape")
        await wait_until(pilot, lambda: "shown" not in screen_text(app))
        assert app.escaped == 0
        await pilot.press("escape")
        assert app.escaped == 1  # no filter: Esc goes on (a screen goes back)


async def test_sort_by_the_picked_column_with_an_arrow_and_reverse() -> None:
    app = Harness(complete=False)
    async with app.run_test(size=(90, 20)) as pilot:
        await pilot.pause()
        await pilot.press("right", "right", "s")
        await wait_until(pilot, lambda: "Credits ▲" in screen_text(app))
        assert "sorted by Credits ▲, the 60 loaded" in screen_text(app)
        assert _focused_id(app) == "exp_001"  # the cursor stays on its row
        await pilot.press("g")
        assert _focused_id(app) == "exp_002"  # 5 credits, the first of the equal ones
        await pilot.press("s", "g")
        await wait_until(pilot, lambda: "Credits ▼" in screen_text(app))
        assert _focused_id(app) == "exp_001"
        await pilot.press("right", "s", "g")
        await wait_until(pilot, lambda: "sorted by Updated ▲" in screen_text(app))
        assert _focused_id(app) == "exp_002"  # 2026-01-01


async def test_describe_and_copy_id_of_the_focused_row() -> None:
    app = Harness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("j", "I")
        assert app.clipboard == "exp_002"
        await pilot.press("D")
        await wait_until(pilot, lambda: '"status": "failed",' in screen_text(app))
        assert isinstance(app.screen, Describe)
        await pilot.press("Y")
        assert json.loads(app.clipboard) == JOBS[1]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, Describe))
