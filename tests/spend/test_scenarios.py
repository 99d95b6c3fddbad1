"""The scenario table through the decision itself (see `tests/spend/scenarios.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.config.settings import SpendPolicy
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal, default_journal_path
from tests.spend.scenarios import IDS, ROWS, Row, arrange, outcome_of, request_for, spend_posts


@pytest.mark.parametrize("row", ROWS, ids=IDS)
async def test_the_decision(
    row: Row, make_client: Callable[..., Any], sandbox_http: httpx.AsyncClient
) -> None:
    arranged = await arrange(row, sandbox_http)
    client = make_client()
    policy = SpendPolicy(spend_budget=row.budget, read_only=row.read_only)
    gate = SpendGate(SpendJournal(default_journal_path()), profile="default", policy=policy)
    request = await request_for(row, arranged, client)
    attended = await gate.decide(request, client, row.authorization(attended=True))
    unattended = await gate.decide(request, client, row.authorization(attended=False))
    assert (outcome_of(attended), outcome_of(unattended)) == (row.app, row.script)
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert spend_posts(log) == []  # deciding sends nothing
