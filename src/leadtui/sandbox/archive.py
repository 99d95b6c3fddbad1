"""ZIP archives of an export's leads: `leads.csv` + `leads.json`, or selected columns only."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Sequence
from typing import Any


def _csv(leads: list[dict[str, Any]], columns: Sequence[str]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([lead[c] for c in columns] for lead in leads)
    return buffer.getvalue().encode()


def _json(leads: list[dict[str, Any]], columns: Sequence[str]) -> bytes:
    rows = [{c: lead[c] for c in columns} for lead in leads]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode()


def build_zip(leads: list[dict[str, Any]], columns: Sequence[str], formats: Sequence[str]) -> bytes:
    """A ZIP with `leads.<format>` per requested format; fast deflate, it is a sandbox."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for fmt in formats:
            data = _csv(leads, columns) if fmt == "csv" else _json(leads, columns)
            zf.writestr(f"leads.{fmt}", data)
    return out.getvalue()
