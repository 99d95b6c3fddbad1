"""Rows to JSON records, and the deterministic figures derived from requests."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Final

from leadtui.api.contract import API_PREFIX, ExportStatus
from leadtui.api.models import ExtractionRequest, SearchItem, SearchRequest
from leadtui.sandbox.clock import iso
from leadtui.sandbox.domain.jobs import ExtractionView, JobView, StoredState, extraction_view
from leadtui.sandbox.domain.ledger import EXTRACTION_LAUNCH_COST, PRICE_PER_RESULT
from leadtui.sandbox.leads import LeadSource, seed_of


def _weight(items: list[SearchItem]) -> int:
    return sum(1 + seed_of(item.name.strip().lower()) % 9 for item in items)


def count_results(request: SearchRequest) -> int:
    """The same search, the same count; one narrow activity/country/place can be a handful."""
    breadth = _weight(request.activities) * _weight(request.countries)
    breadth *= _weight(request.localisations)
    count = breadth * 7 + seed_of(json.dumps(request.to_body(), sort_keys=True)) % 7
    return count // 2 if request.result_filter else count


def search_source(search_id: str, request: dict[str, Any]) -> LeadSource:
    return LeadSource(
        source_id=search_id,
        activities=tuple(item["name"] for item in request["activities"]),
        countries=tuple(item["name"] for item in request["countries"]),
        cities=tuple(item["name"] for item in request["localisations"]),
    )


def search_json(row: sqlite3.Row) -> dict[str, Any]:
    request = json.loads(row["request_json"])
    names = [
        ", ".join(item["name"] for item in request[section][:3])
        for section in ("activities", "countries", "localisations")
    ]
    result_count, unlocked = int(row["result_count"]), int(row["unlocked_count"])
    return {
        "searchId": row["id"],
        "status": "counted",
        "summary": " · ".join(names),
        "result_count": result_count,
        "unlocked_count": unlocked,
        "locked_count": result_count - unlocked,
        "price_per_result": PRICE_PER_RESULT,
        "request": request,
        "created_at": iso(float(row["created_at"])),
    }


def export_json(row: sqlite3.Row, view: JobView) -> dict[str, Any]:
    export_id = row["id"]
    record: dict[str, Any] = {
        "exportId": export_id,
        "searchId": row["search_id"],
        "status": str(view.status),
        "progress": view.progress,
        "additional_results": int(row["additional_results"]),
        "result_count": int(row["additional_results"]),
        "credits_debited": int(row["credits_debited"]),
        "price_per_result": PRICE_PER_RESULT,
        "retries": int(row["retries"]),
        "created_at": iso(float(row["created_at"])),
        "updated_at": iso(view.updated_at),
        "download_path": None,
    }
    if view.status == ExportStatus.READY:
        record["download_path"] = f"{API_PREFIX}/exports/{export_id}/download"
    return record


def extraction_target(request: dict[str, Any]) -> int:
    """How many results a finished extraction holds (deterministic from its request)."""
    width = max(1, len(request.get("categories") or [])) * max(
        1, len(request.get("localisations") or [])
    )
    return min(5_000, width * (20 + seed_of(json.dumps(request, sort_keys=True)) % 80))


def extraction_source(extraction_id: str, request: dict[str, Any]) -> LeadSource:
    return LeadSource(
        source_id=extraction_id,
        activities=tuple(request.get("categories") or ()),
        countries=tuple(request.get("countries") or ()),
        cities=tuple(request.get("localisations") or ()),
    )


def extraction_json(
    row: sqlite3.Row, now: float, job_seconds: float
) -> tuple[dict[str, Any], ExtractionView]:
    """The record and the computed view (for `Retry-After` and transitions)."""
    request = json.loads(row["request_json"])
    view = extraction_view(row, now, job_seconds, extraction_target(request))
    launched = row["launched_at"]
    record = {
        "extractionId": row["id"],
        "status": str(view.job.status),
        "progress": view.job.progress,
        "editable": row["state"] == StoredState.DRAFT,
        "results_state": view.results_state,
        "result_count": view.results_available,
        **{name: request.get(name) for name in _EXTRACTION_FIELDS},
        "launch_cost": EXTRACTION_LAUNCH_COST,
        "created_at": iso(float(row["created_at"])),
        "updated_at": iso(view.job.updated_at),
        "launched_at": iso(float(launched)) if launched is not None else None,
    }
    return record, view


# An extraction record repeats its request's members (null where the draft has none yet).
_EXTRACTION_FIELDS: Final = tuple(ExtractionRequest.model_fields)
