"""History: this session's requests and notifications, newest first, filterable, copyable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leadtui.api.errors import NotFound
from leadtui.api.exchange import Exchange
from leadtui.ui.dialogs.describe import Describe
from leadtui.ui.model.history import History
from leadtui.ui.screens.history import HistoryScreen
from tests.ui.pilot import settle
from tests.ui.screen import screen_text, wait_until
from tests.ui.test_help import help_sections

KEY = "sk_demo_full"


async def _open_history(app: Any, pilot: Any) -> None:
    """Open History once the start-up requests are in it: Account's GET /me and /usage (the
    check for pending spends, with the local watches, takes the account from that GET /me)."""

    def started() -> bool:
        return "GET /usage" in [e.what for e in app.history.entries()] and app.journal_watch.started

    await wait_until(pilot, started)
    await settle(pilot)
    assert [e.what for e in app.history.entries()] == ["GET /usage", "GET /me"]
    await pilot.press("H")
    await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))


async def _missing_search(app: Any, pilot: Any) -> str:
    """A request that fails (404) while History is open; its request id once it shows."""
    with pytest.raises(NotFound) as missing:
        await app.client.searches.get("srch_missing")
    await wait_until(pilot, lambda: "srch_missing" in _lines(app)[3])
    return str(missing.value.request_id)


def _lines(app: Any) -> list[str]:
    return screen_text(app).splitlines()


async def test_requests_and_notifications_newest_first_never_the_key(build_app: Any) -> None:
    app = build_app(KEY)
    async with app.run_test(size=(120, 30)) as pilot:
        await _open_history(app, pilot)
        await _missing_search(app, pilot)
        app.notify("exp_000012 is ready", title="Export ready")
        await wait_until(pilot, lambda: "Export ready" in _lines(app)[3])
        text = screen_text(app)
        assert "History · " in text
        rows = [line for line in _lines(app) if "GET /" in line or "Export ready" in line]
        # Newest first: the notification, the 404, then what Account loaded at start.
        assert "Export ready: exp_000012 is ready" in rows[0]
        assert "GET /searches/srch_missing" in rows[1]
        assert "404 not_found" in rows[1]
        assert "req_" in rows[1]
        assert any("GET /me" in row and "200" in row and " ms" in row for row in rows[2:])
        assert KEY not in text
        # Every line as copied and every record as described holds no key either.
        await pilot.press("Y")
        assert "GET /searches/srch_missing  404 not_found" in app.clipboard
        assert KEY not in app.clipboard
        for entry in app.history.entries():
            assert KEY not in entry.line()
            assert KEY not in json.dumps(entry.record())


async def test_filter_negates_clears_with_esc_and_esc_goes_back(
    build_app: Any, fixed_request_ids: None
) -> None:
    # One request id for all: a random one may hold "404" and match the filter too.
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await _open_history(app, pilot)
        await _missing_search(app, pilot)
        total = len(app.history.entries())
        await pilot.press("slash", *"404")
        await wait_until(
            pilot, lambda: f"/404▏ · 1 of {total} shown · filter: 404" in screen_text(app)
        )
        assert "srch_missing" in screen_text(app)
        assert "GET /me" not in screen_text(app)
        await pilot.press("backspace", "backspace", "backspace", *"!404")
        await wait_until(pilot, lambda: f"{total - 1} of {total} shown" in screen_text(app))
        assert "srch_missing" not in screen_text(app)
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: f"History · {total - 1} of {total} shown" in screen_text(app)
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: f"History · {total} ─" in screen_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, HistoryScreen))


async def test_a_line_is_copied_and_described_whole(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await _open_history(app, pilot)
        request_id = await _missing_search(app, pilot)
        await pilot.press("y")
        assert "GET /searches/srch_missing  404 not_found  " in app.clipboard
        assert app.clipboard.endswith(f" ms  request_id={request_id}")
        await pilot.press("I")
        assert app.clipboard == request_id
        await pilot.press("enter")
        await wait_until(pilot, lambda: '"path": "/searches/srch_missing"' in screen_text(app))
        assert isinstance(app.screen, Describe)
        text = screen_text(app)
        assert '"path": "/searches/srch_missing"' in text
        assert f'"request_id": "{request_id}"' in text
        await pilot.press("slash", *"request_id", "enter")
        await wait_until(pilot, lambda: "match 1 of 1" in screen_text(app))
        await pilot.press("y")
        assert app.clipboard == request_id
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))


async def test_new_requests_appear_while_it_is_open(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await _open_history(app, pilot)
        await app.client.usage()
        await app.client.searches.list()
        await wait_until(pilot, lambda: "GET /searches" in _lines(app)[3])
        assert "GET /usage" in _lines(app)[4]


def test_only_the_last_500_are_kept() -> None:
    history = History(lambda: 1_767_225_600.0)
    for n in range(501):
        history.add_exchange(Exchange("GET", f"/searches/srch_{n}", 200, 0.01, None, None, "ok"))
    entries = history.entries()
    assert len(entries) == 500
    assert entries[0].what == "GET /searches/srch_500"
    assert entries[-1].what == "GET /searches/srch_1"


def test_a_retry_shows_its_number_and_the_key_short() -> None:
    history = History(lambda: 1_767_225_600.0)
    exchange = Exchange(
        "POST", "/searches/s/exports", None, 1.5, None, "0123456789ab", "timeout", 2
    )
    history.add_exchange(exchange)
    entry = history.entries()[0]
    assert entry.cells() == (
        "00:00:00",
        "timeout",
        "1,500 ms",
        "",
        "01234567",
        "POST /searches/s/exports (retry 1)",
    )
    assert entry.line() == (
        "2026-01-01T00:00:00Z  POST /searches/s/exports (retry 1)  timeout  1,500 ms  "
        "idempotency_key=01234567…"
    )


async def test_help_lists_the_table_keys_each_named_one_way(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await _open_history(app, pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: "Keys — History" in screen_text(app))
        text = screen_text(app)
        assert list(help_sections(text))[:3] == ["This screen", "In the table", "Go to"]
        for keys, words in (
            ("↓ j", "Down"),
            ("↑ k", "Up"),
            ("Home g", "First row"),
            ("End G", "Last row"),
            ("ctrl+d", "Half page down"),
            ("/", "Filter"),
            ("s", "Sort"),
            ("D", "Describe"),
            ("I", "Copy id"),
            ("Tab", "Next table or field"),
            ("shift+Tab", "Previous table or field"),
            ("Enter", "Open"),
        ):
            assert any(
                line.split()[: len(keys.split())] == keys.split() and words in line
                for line in (row.strip(" │") for row in text.splitlines())
            ), (keys, words)
        lines = text.splitlines()
        box = "\n".join(lines[1 : next(i for i, line in enumerate(lines) if "esc closes" in line)])
        assert "⇧" not in box
        assert "^" not in box  # ctrl+d, never ^d


async def test_palette_lists_every_key_of_the_screen_first(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_history(app, pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: "history: back  Esc q" in screen_text(app))
        text = screen_text(app)
        entries = [line for line in text.splitlines() if ": " in line and "│" not in line[:2]]
        titles = [entry.strip(" ▎│") for entry in entries]
        assert titles.index("history: back  Esc q") < titles.index("history: copy line  y")
        assert any("screens: Account" in title for title in titles)
        await pilot.press(*"describe")
        await wait_until(pilot, lambda: "history: describe  D" in screen_text(app))
        await pilot.press("enter")
        await wait_until(pilot, lambda: '"method": "GET"' in screen_text(app))


async def test_a_long_notification_leaves_every_column_on_screen(build_app: Any) -> None:
    app = build_app(KEY)
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_history(app, pilot)
        app.notify(
            "exp_000010 is ready; select it under Exports: d downloads it, or a to a folder "
            "you choose, o for a few columns only",
            title="✓ Export is ready",
        )
        await wait_until(pilot, lambda: "Export is ready" in screen_text(app))
        heading = next(line for line in _lines(app) if "Request id" in line)
        for column in ("Time", "Status", "Took", "Request id", "Key", "What"):
            assert column in heading
        rows = [line for line in _lines(app) if "GET /me" in line]
        assert rows
        assert all("200" in row and " ms" in row and "req_" in row for row in rows)
