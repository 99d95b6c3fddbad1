"""One sender at a time: an intent being sent cannot be discarded or sent again elsewhere, and
the server's success wins over a discard that slipped in after a claim ran out."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.claims import CLAIM_SECONDS
from leadtui.spend.errors import IntentClaimed, IntentSettled, SpendBlocked
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.spend.conftest import SEARCH, credits, gate, journal_unlock
from tests.spend.test_ambiguous import Receive, Scope, Send


class HoldTheUnlock:
    """A gateway that holds each unlock until the test lets it through."""

    def __init__(self, sandbox_app: Any) -> None:
        self.app = sandbox_app
        self.arrived = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/exports"):
            self.arrived.set()
            await self.go.wait()
        await self.app(scope, receive, send)


@pytest.fixture
async def held(sandbox_app: Any) -> Any:
    gateway = HoldTheUnlock(sandbox_app)
    async with LeadClient(
        "http://127.0.0.1", "sk_demo_full", transport=httpx.ASGITransport(app=gateway)
    ) as client:
        yield gateway, client


async def test_an_intent_being_sent_is_neither_discarded_nor_sent_twice(
    held: tuple[HoldTheUnlock, LeadClient], make_client: Callable[..., LeadClient], tmp_path: Path
) -> None:
    gateway, client = held
    path = tmp_path / "journal.sqlite3"
    first, second = SpendJournal(path), SpendJournal(path)  # two windows, one file
    search = await make_client().searches.create(SEARCH)
    intent = journal_unlock(first, "ik-held", search_id=search.searchId, results=2)

    sending = asyncio.create_task(gate(first).resend(intent, client))
    await gateway.arrived.wait()
    with pytest.raises(IntentClaimed) as refused:
        second.discard("ik-held")
    assert refused.value.title == "Spend being sent elsewhere"
    with pytest.raises(IntentClaimed):
        await gate(second).resend(intent, make_client())
    gateway.go.set()
    await sending

    settled = second.get("ik-held")
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
    with pytest.raises(IntentSettled):
        second.discard("ik-held")
    assert await credits(client) == 10_000 - 2


async def test_a_success_overrides_a_discard_made_after_the_claim_ran_out(
    held: tuple[HoldTheUnlock, LeadClient], make_client: Callable[..., LeadClient], tmp_path: Path
) -> None:
    gateway, client = held
    path = tmp_path / "journal.sqlite3"
    sender = SpendJournal(path, clock=lambda: 1_000.0)
    later = SpendJournal(path, clock=lambda: 1_000.0 + CLAIM_SECONDS + 1)
    search = await make_client().searches.create(SEARCH)
    intent = journal_unlock(sender, "ik-slow", search_id=search.searchId, results=5)

    sending = asyncio.create_task(gate(sender).resend(intent, client))
    await gateway.arrived.wait()
    later.discard("ik-slow")  # the claim has expired: the user's discard goes through
    discarded = later.get("ik-slow")
    assert discarded is not None
    assert discarded.outcome is SpendOutcome.DISCARDED
    gateway.go.set()
    result = await sending

    # The server charged it: the journal says so, not "discarded".
    settled = later.get("ik-slow")
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
    assert settled.outcome_detail["id"] == result.record.exportId
    assert await credits(client) == 10_000 - 5


def test_a_claim_held_by_another_process_blocks_until_that_process_dies(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = SpendJournal(path)
    journal_unlock(journal, "ik-other")
    holder = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from leadtui.spend.journal import SpendJournal
        from leadtui.spend.claims import new_claim_owner
        SpendJournal(Path({str(path)!r})).claim("ik-other", new_claim_owner())
        print("CLAIMED", flush=True)
        sys.stdin.read()
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == b"CLAIMED"
            with pytest.raises(IntentClaimed):
                journal.discard("ik-other")
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
    # Its owner died on this machine: the claim is taken over at once, not after it expires.
    journal.discard("ik-other")
    dropped = journal.get("ik-other")
    assert dropped is not None
    assert dropped.outcome is SpendOutcome.DISCARDED
    assert issubclass(IntentClaimed, SpendBlocked)
