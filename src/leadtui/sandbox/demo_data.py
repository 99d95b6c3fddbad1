"""Demo Co's month of history for `leadtui --demo`: usage, searches, unlocks and jobs.

Everything is written through the domain, as the API's own handlers do (search insert,
unlock, extraction insert/launch/pause, export failure), at backdated times, with the
idempotency records a real client's calls would have left; only the per-day request counts
are added in bulk, as the request counter would have added them one by one. The figures are
deterministic for a given `now`, and jobs near `now` are timed in `job_seconds`, so the first
minute of a demo shows an export finishing, one leaving the queue and an extraction running.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from leadtui.api.contract import API_PREFIX
from leadtui.api.models import USAGE_WINDOW_DAYS, SearchRequest
from leadtui.sandbox.domain.answers import Outcome, fingerprint, remember
from leadtui.sandbox.domain.exports import fail_export, unlock
from leadtui.sandbox.domain.extractions import insert_extraction, launch_draft, move
from leadtui.sandbox.domain.jobs import EXTRACTION_RUNS, QUEUED_FRACTION, StoredState, export_view
from leadtui.sandbox.domain.ledger import count_usage
from leadtui.sandbox.domain.searches import insert_search
from leadtui.sandbox.records import export_json, extraction_json
from leadtui.sandbox.store import Store, load_row

ACCOUNT: Final = "acct_demo"
DAY: Final = 86_400.0
HOUR: Final = 3_600.0
_RNG_SEED: Final = 20_240_501


def _item(name: str, kind: str | None = None, *query_names: str) -> dict[str, Any]:
    item: dict[str, Any] = {"name": name}
    if query_names:
        item["queryNames"] = list(query_names)
    if kind is not None:
        item["localisationType"] = kind
    return item


def _search(activities: list[dict[str, Any]], country: str, cities: list[str]) -> SearchRequest:
    return SearchRequest.model_validate(
        {
            "activities": activities,
            "countries": [_item(country, "country")],
            "localisations": [_item(city, "city") for city in cities],
        }
    )


# Searches by name, then what happened when: (seconds before now, event).
SEARCHES: Final = {
    "bakeries": _search(
        [_item("Bakeries", None, "boulangerie", "pâtisserie")], "France", ["Lyon", "Villeurbanne"]
    ),
    "dentists": _search(
        [_item("Dental clinics", None, "Zahnarzt", "Zahnklinik")], "Germany", ["Berlin"]
    ),
    "coworking": _search(
        [_item("Coworking spaces")], "Netherlands", ["Amsterdam", "Rotterdam", "Utrecht"]
    ),
    "vegan": _search([_item("Vegan restaurants")], "United Kingdom", ["London", "Manchester"]),
    "bikes": _search(
        [_item("Bike repair shops"), _item("Bicycle stores")], "Spain", ["Barcelona", "Valencia"]
    ),
}

EXTRACTIONS: Final = {
    "venues": {
        "categories": ["Wedding venues"],
        "countries": ["Italy"],
        "localisations": ["Florence", "Siena"],
        "enrichment_sources": ["website", "social_profiles"],
    },
    "vets": {
        "categories": ["Veterinary clinics"],
        "countries": ["Belgium"],
        "localisations": ["Brussels", "Antwerp", "Ghent"],
        "enrichment_sources": ["website", "reviews"],
    },
    "climbing": {
        "categories": ["Climbing gyms"],
        "countries": ["Austria"],
        "localisations": ["Vienna", "Innsbruck"],
        "urls": ["https://www.example.com/climbing-gyms-austria"],
        "enrichment_sources": ["website"],
    },
    "florists": {
        "categories": ["Florists"],
        "countries": ["Portugal"],
        "localisations": ["Lisbon", "Porto"],
        "enrichment_sources": ["website", "social_profiles", "reviews"],
    },
}


@dataclass
class _Seeder:
    conn: sqlite3.Connection
    job_seconds: float
    search_ids: dict[str, str]
    extraction_ids: dict[str, str]
    keys: int = 0

    def remember(self, method: str, path: str, body: Any, answer: Outcome, at: float) -> None:
        """The idempotency record the client's call would have left."""
        self.keys += 1
        fp = fingerprint(method, f"{API_PREFIX}{path}", body)
        remember(self.conn, ACCOUNT, f"demo-seed-{self.keys:03d}", fp, answer, at)

    def search(self, name: str, at: float) -> None:
        row = insert_search(self.conn, ACCOUNT, SEARCHES[name], at)
        self.search_ids[name] = str(row["id"])

    def unlock(self, name: str, count: int, at: float) -> sqlite3.Row:
        search_id = self.search_ids[name]
        row = unlock(self.conn, ACCOUNT, search_id, count, at)
        answer = {"data": export_json(row, export_view(row, at, self.job_seconds))}
        body = {"additional_results": count}
        self.remember("POST", f"/searches/{search_id}/exports", body, (202, answer), at)
        return row

    def _remember_extraction(
        self, row: sqlite3.Row, method: str, path: str, body: Any, status: int
    ) -> None:
        at = float(row["updated_at"])
        record, _ = extraction_json(row, at, self.job_seconds)
        self.remember(method, path, body, (status, {"data": record}), at)

    def create_extraction(self, name: str, at: float) -> None:
        row = insert_extraction(self.conn, ACCOUNT, EXTRACTIONS[name], at, launched=True)
        self.extraction_ids[name] = str(row["id"])
        self._remember_extraction(row, "POST", "/extractions", EXTRACTIONS[name], 201)

    def draft(self, name: str, at: float) -> None:
        row = insert_extraction(self.conn, ACCOUNT, EXTRACTIONS[name], at, launched=False)
        self.extraction_ids[name] = str(row["id"])

    def launch(self, name: str, at: float) -> None:
        row = load_row(self.conn, "extractions", self.extraction_ids[name])
        row = launch_draft(self.conn, row, at)
        self._remember_extraction(row, "POST", f"/extractions/{row['id']}/launch", None, 201)

    def pause(self, name: str, at: float) -> None:
        row = load_row(self.conn, "extractions", self.extraction_ids[name])
        row = move(self.conn, row, StoredState.PAUSED, at, self.job_seconds)
        body = {"action": "pause"}
        self._remember_extraction(row, "PATCH", f"/extractions/{row['id']}", body, 200)


def _timeline(job_seconds: float) -> list[tuple[float, Callable[[_Seeder, float], object]]]:
    """(seconds before now, step), oldest first, so ids and list order follow time."""
    queue_s = job_seconds * QUEUED_FRACTION
    extraction_total = job_seconds * EXTRACTION_RUNS

    def failed_unlock(seeder: _Seeder, at: float) -> None:
        row = seeder.unlock("dentists", 90, at)
        fail_export(seeder.conn, row, at + 0.6 * job_seconds, job_seconds)

    def waiting_unlock(seeder: _Seeder, at: float) -> None:
        # Queued behind other jobs: it starts four job lengths after the demo opens.
        row = seeder.unlock("vegan", 40, at)
        start = at + 4 * job_seconds
        seeder.conn.execute("UPDATE exports SET started_at = ? WHERE id = ?", (start, row["id"]))

    running_for = queue_s + 0.3 * (extraction_total - queue_s)
    return [
        (27 * DAY + 6 * HOUR, lambda s, t: s.search("bakeries", t)),
        (26 * DAY + 5 * HOUR, lambda s, t: s.unlock("bakeries", 250, t)),
        (22 * DAY + 3 * HOUR, lambda s, t: s.search("dentists", t)),
        (21 * DAY + 2 * HOUR, lambda s, t: s.unlock("dentists", 120, t)),
        (19 * DAY + 7 * HOUR, lambda s, t: s.unlock("bakeries", 150, t)),
        (18 * DAY + 4 * HOUR, lambda s, t: s.create_extraction("venues", t)),
        (15 * DAY + 6 * HOUR, lambda s, t: s.search("coworking", t)),
        (14 * DAY + 5 * HOUR, lambda s, t: s.unlock("coworking", 300, t)),
        (12 * DAY + 1 * HOUR, lambda s, t: s.unlock("dentists", 80, t)),
        (9 * DAY + 4 * HOUR, lambda s, t: s.search("vegan", t)),
        (8 * DAY + 3 * HOUR, lambda s, t: s.unlock("vegan", 60, t)),
        (6 * DAY + 5 * HOUR, lambda s, t: s.draft("vets", t)),
        (6 * DAY + 2 * HOUR, lambda s, t: s.unlock("bakeries", 100, t)),
        (5 * DAY + 6 * HOUR, lambda s, t: s.launch("vets", t)),
        (5 * DAY + 6 * HOUR - 0.45 * extraction_total, lambda s, t: s.pause("vets", t)),
        (3 * DAY + 2 * HOUR, lambda s, t: s.unlock("coworking", 200, t)),
        (1 * DAY + 3 * HOUR, failed_unlock),
        (5 * HOUR, lambda s, t: s.search("bikes", t)),
        (2 * HOUR, lambda s, t: s.draft("florists", t)),
        (running_for, lambda s, t: s.create_extraction("climbing", t)),
        # Just past the queue (a margin against float rounding): processing when the demo opens.
        (queue_s * 1.1, lambda s, t: s.unlock("coworking", 75, t)),
        (0.0, waiting_unlock),
    ]


def _request_history(now: float) -> list[tuple[str, int]]:
    """Requests per day of the usage window: busier on weekdays, today only partly done."""
    rng = random.Random(_RNG_SEED)
    today = datetime.fromtimestamp(now, UTC)
    out = []
    for back in range(USAGE_WINDOW_DAYS - 1, -1, -1):
        day = today - timedelta(days=back)
        base = 60 if day.weekday() >= 5 else 240
        requests = int(base * rng.uniform(0.6, 1.5)) + rng.randrange(0, 25)
        if back == 0:
            requests = max(3, int(requests * (today.hour * 60 + today.minute) / 1_440))
        out.append((day.strftime("%Y-%m-%d"), requests))
    return out


def seed_demo(store: Store, now: float, job_seconds: float) -> None:
    """Give Demo Co its history as of `now`, unless it already has some."""
    with store.transaction() as conn:
        for table in ("searches", "exports", "extractions"):
            row = conn.execute(
                f"SELECT 1 FROM {table} WHERE account_id = ? LIMIT 1",  # noqa: S608 - fixed names
                (ACCOUNT,),
            ).fetchone()
            if row is not None:
                return
        seeder = _Seeder(conn, job_seconds, {}, {})
        for before, step in _timeline(job_seconds):
            step(seeder, now - before)
        for day, requests in _request_history(now):
            count_usage(conn, ACCOUNT, day, requests=requests)
