"""The search being built, and why it is not valid yet — checked by the client's own models.

Reasons name the field and the bound ("name: 161/160 characters", "activities: add at least
1 item", "localisationIdentifiers: 201/200"), keyed by a path like "activities.0.name".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import ValidationError

from leadtui.api.models import (
    SEARCH_ITEM_LOCALISATION_IDS_MAX,
    SEARCH_ITEM_NAME_MAX,
    SEARCH_ITEM_QUERY_NAMES_MAX,
    SearchRequest,
)
from leadtui.api.strict_json import NotStrictJson, loads_strict

SECTIONS: Final = ("activities", "countries", "localisations")
FILTER: Final = "result_filter"
# Form field → (API member, limit shown next to it).
ITEM_FIELDS: Final = (
    ("name", SEARCH_ITEM_NAME_MAX),
    ("queryNames", SEARCH_ITEM_QUERY_NAMES_MAX),
    ("localisationType", None),
    ("localisationIdentifiers", SEARCH_ITEM_LOCALISATION_IDS_MAX),
)
LIST_FIELDS: Final = frozenset({"queryNames", "localisationIdentifiers"})
_SPLIT = re.compile(r"[,\n\r\t]+")
# "activities.0.name: …" — how the server's 400 names a field (our sandbox; see problems.py).
_SERVER_FIELD = re.compile(
    r"(?:^|;\s*)((?:activities|countries|localisations)(?:\.\d+(?:\.\w+)?)?|result_filter)[.\w]*:\s*"
    r"([^;]*)"
)


def split_values(text: str) -> list[str]:
    """Comma-, tab- or newline-separated values, trimmed, blanks dropped."""
    return [v.strip() for v in _SPLIT.split(text) if v.strip()]


@dataclass
class ItemDraft:
    """One SearchItem as typed: list fields are the raw comma-separated text."""

    name: str = ""
    queryNames: str = ""
    localisationType: str = ""
    localisationIdentifiers: str = ""

    def value(self, member: str) -> str:
        return str(getattr(self, member))

    def count(self, member: str) -> int:
        text = self.value(member)
        return len(split_values(text)) if member in LIST_FIELDS else len(text)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": self.name.strip()}
        for member in ("queryNames", "localisationIdentifiers"):
            values = split_values(self.value(member))
            if values:
                body[member] = values
        if self.localisationType.strip():
            body["localisationType"] = self.localisationType.strip()
        return body


@dataclass
class SearchDraft:
    activities: list[ItemDraft] = field(default_factory=list)
    countries: list[ItemDraft] = field(default_factory=list)
    localisations: list[ItemDraft] = field(default_factory=list)
    result_filter: str = ""

    def section(self, name: str) -> list[ItemDraft]:
        items: list[ItemDraft] = getattr(self, name)
        return items

    def body(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The JSON body as it would be sent, and problems found before the model sees it."""
        problems: dict[str, str] = {}
        body: dict[str, Any] = {s: [i.body() for i in self.section(s)] for s in SECTIONS}
        for s in SECTIONS:
            for n, item in enumerate(self.section(s)):
                if not item.name.strip():
                    problems[f"{s}.{n}.name"] = "name: required"
        text = self.result_filter.strip()
        if text:
            try:
                value = loads_strict(text)
            except NotStrictJson as error:
                problems[FILTER] = f"{FILTER}: not strict JSON ({error}); nothing is sent"
            except json.JSONDecodeError as error:
                problems[FILTER] = f"{FILTER}: not JSON (line {error.lineno}: {error.msg})"
            else:
                if isinstance(value, dict):
                    body[FILTER] = value
                else:
                    problems[FILTER] = f"{FILTER}: must be a JSON object {{…}}"
        return body, problems

    def problems(self) -> dict[str, str]:
        """Every reason the draft cannot be sent, by field path; empty when it can."""
        body, problems = self.body()
        try:
            SearchRequest.model_validate(body)
        except ValidationError as error:
            for detail in error.errors():
                path = ".".join(str(p) for p in detail["loc"])
                problems.setdefault(path, self._reason(detail, body))
        return problems

    def request(self) -> SearchRequest:
        """The validated request (raises ValidationError/ValueError when it has problems)."""
        body, problems = self.body()
        if problems:
            raise ValueError("; ".join(problems.values()))
        return SearchRequest.model_validate(body)

    @staticmethod
    def _reason(detail: Any, body: dict[str, Any]) -> str:
        member = str(detail["loc"][-1]) if detail["loc"] else "body"
        ctx = detail.get("ctx") or {}
        value = detail.get("input")
        kind = detail["type"]
        if kind == "string_too_long":
            return f"{member}: {len(value)}/{ctx.get('max_length')} characters"
        if kind == "too_long":
            unit = " items" if member in SECTIONS else ""
            return f"{member}: {len(value)}/{ctx.get('max_length')}{unit}"
        if kind == "too_short":
            return f"{member}: add at least {ctx.get('min_length', 1)} item"
        return f"{member}: {detail['msg']}"


def server_field_errors(message: str) -> dict[str, str]:
    """Field paths a server 400 names in its message → what it said (shown by the field).

    Placement only: the app still branches on `error.code`, never on the message.
    """
    found: dict[str, str] = {}
    for match in _SERVER_FIELD.finditer(message):
        path, said = match.group(1), match.group(2).strip()
        found.setdefault(path, f"server: {said}" if said else "server: invalid")
    return found
