"""An asker inside the test's event loop: what a surface that cannot ask does (quote, write
the request into the journal, wait for the app's answer, then send through the spend core)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from leadtui.api.client import LeadClient
from leadtui.config.settings import SpendPolicy
from leadtui.spend.approval_wait import InAppApproval
from leadtui.spend.approvals import ApprovalDesk, Party, Progress
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from tests.support import spend_requests

AGENT = "test agent"


def desk() -> ApprovalDesk:
    """The approval rows of the test's journal."""
    return ApprovalDesk(SpendJournal())


async def ask_and_spend(
    client: LeadClient,
    search_id: str,
    results: int,
    *,
    wait_seconds: float = 120.0,
    clock: Callable[[], float] = time.monotonic,
) -> SpendResult:
    """Ask the running app for `results` results of `search_id`; send once it says yes."""
    gate = SpendGate(SpendJournal(), profile="default", policy=SpendPolicy(0, read_only=False))
    approval = InAppApproval(
        gate,
        client,
        Party.here("agent", AGENT),
        timeout=wait_seconds,
        clock=clock,
        poll_seconds=0.02,
    )
    request = spend_requests.unlock(search_id, results)
    decided = await gate.decide(request, client, Authorization(Surface.AGENT))
    approved = await approval.wait(dataclasses.replace(request, quote=decided.quote))
    result = await spend_requests.execute(
        gate, approved.request, client, confirmed=True, surface=Surface.AGENT
    )
    approval.desk.update(approved.record, Progress.SENT, {"code": "sent"})
    return result


def start_asking(client: LeadClient, search_id: str, results: int, **options: Any) -> Any:
    return asyncio.create_task(ask_and_spend(client, search_id, results, **options))
