"""TableView: a filter on any visible column (`!` negates), stable number- and date-aware sorts."""

from __future__ import annotations

import pytest

from leadtui.ui.model.table_view import TableView, sort_key

Job = tuple[str, str, str, str]  # id, status, credits, updated
JOBS: list[Job] = [
    ("exp_1", "ready", "1,200", "2026-01-03T10:00:00Z"),
    ("exp_2", "failed", "5", "2026-01-01T09:00:00+00:00"),
    ("exp_3", "running", "", "2026-01-02T08:00:00Z"),
    ("exp_4", "ready", "80", ""),
    ("exp_5", "queued", "80", "2026-01-02T08:00:00Z"),
]


def view() -> TableView[Job]:
    table: TableView[Job] = TableView(("Id", "Status", "Credits", "Updated"), lambda job: job)
    table.set_rows(JOBS)
    return table


def ids(table: TableView[Job]) -> list[str]:
    return [job[0] for job in table.shown]


def test_filter_matches_any_visible_column_case_insensitively() -> None:
    table = view()
    table.filter("READY")
    assert ids(table) == ["exp_1", "exp_4"]
    table.filter("2026-01-02")
    assert ids(table) == ["exp_3", "exp_5"]
    assert table.summary() == "2 of 5 shown · filter: 2026-01-02"


def test_bang_keeps_the_rows_that_do_not_match() -> None:
    table = view()
    table.filter("!ready")
    assert ids(table) == ["exp_2", "exp_3", "exp_5"]
    table.filter("!")
    assert ids(table) == [job[0] for job in JOBS]


def test_typing_on_narrows_and_deleting_widens_again() -> None:
    table = view()
    for query in ("r", "re", "rea", "read"):
        table.filter(query)
    assert ids(table) == ["exp_1", "exp_4"]
    table.filter("r")
    assert ids(table) == ["exp_1", "exp_3", "exp_4"]
    table.filter("")
    assert table.shown_count == table.total == 5
    assert table.summary() == ""


def test_sort_is_numeric_stable_and_keeps_blanks_last_both_ways() -> None:
    table = view()
    table.sort_by(2)
    assert ids(table) == ["exp_2", "exp_4", "exp_5", "exp_1", "exp_3"]
    assert table.heading(2) == "Credits ▲"
    table.sort_by(2)
    # Equal credits (exp_4, exp_5) keep their order; the blank stays last.
    assert ids(table) == ["exp_1", "exp_4", "exp_5", "exp_2", "exp_3"]
    assert table.heading(2) == "Credits ▼"
    assert table.heading(1) == "Status"


def test_sort_reads_iso_dates_with_any_offset_and_the_filter_keeps_it() -> None:
    table = view()
    table.sort_by(3)
    assert ids(table) == ["exp_2", "exp_3", "exp_5", "exp_1", "exp_4"]
    table.filter("!failed")
    assert ids(table) == ["exp_3", "exp_5", "exp_1", "exp_4"]
    table.set_rows([*JOBS, ("exp_6", "ready", "1", "2026-01-02T03:00:00-06:00")])
    assert ids(table) == ["exp_3", "exp_5", "exp_6", "exp_1", "exp_4"]


def test_sort_by_raw_values_when_cells_are_formatted() -> None:
    rows = [("a", 3600.0), ("b", 60.0), ("c", 7200.0)]
    table: TableView[tuple[str, float]] = TableView(
        ("Name", "Age"),
        cells=lambda row: (row[0], f"{int(row[1] // 60)} min ago"),
        values=lambda row: row,
    )
    table.set_rows(rows)
    table.sort_by(1)
    assert [row[0] for row in table.shown] == ["b", "a", "c"]
    with pytest.raises(IndexError):
        table.sort_by(2)


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ("1,234", (0, 1234.0)),
        ("41%", (0, 41.0)),
        ("-2.5", (0, -2.5)),
        (7, (0, 7.0)),
        ("Paris", (1, "paris")),
        ("2026-13-45", (1, "2026-13-45")),
        ("  ", None),
        (None, None),
    ],
)
def test_sort_keys(value: object, key: object) -> None:
    assert sort_key(value) == key
