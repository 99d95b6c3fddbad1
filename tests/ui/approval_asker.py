"""An asker inside the test's event loop: what a surface that cannot ask does (quote, write
the request beside the journal, wait for the app's answer, then send through the spend core)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from leadtui.api.client import LeadClient
from leadtui.config.settings import SpendPolicy
from leadtui.spend.approval_records import Party, Progress
from leadtui.spend.approval_wait import InAppApproval
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.origin import spend_origin
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from tests.support import spend_requests

AGENT = "test agent"


async def quote_unlock(client: LeadClient, search_id: str, results: int) -> SpendRequest:
    search, identity = await asyncio.gather(client.searches.get(search_id), client.me())
    return SpendRequest.for_unlock(Quote.unlock(search, results, identity.credits), search_id)


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
        ApprovalDesk(approvals_folder()),
        Party.here("agent", AGENT),
        timeout=wait_seconds,
        clock=clock,
        poll_seconds=0.02,
    )

    async def requote(request: SpendRequest) -> SpendRequest:
        fresh = await quote_unlock(client, search_id, results)
        return dataclasses.replace(fresh, idempotency_key=request.idempotency_key)

    approved = await approval.wait(
        await quote_unlock(client, search_id, results),
        profile="default",
        origin=spend_origin(client.base_url),
        account=await gate.account_of(client),
        requote=requote,
    )
    result = await spend_requests.execute(
        gate, approved.request, client, confirmed=True, surface=Surface.AGENT
    )
    approval.settled(approved, Progress.SENT, {"code": "sent"})
    return result


def start_asking(client: LeadClient, search_id: str, results: int, **options: Any) -> Any:
    return asyncio.create_task(ask_and_spend(client, search_id, results, **options))
