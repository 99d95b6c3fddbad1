"""A crash under one account, a sign-in under another on the same profile: the pending spend
is neither offered to nor sent under the second account, and its own account resends it once.
Over a real socket, with the spender SIGKILLed after sending."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.e2e.crashes import crash_after_sending
from tests.e2e.sandbox_process import sandbox_process

from leadtui.api.client import LeadClient
from leadtui.api.keys import new_idempotency_key
from leadtui.config.settings import SpendPolicy
from leadtui.spend.errors import IntentOfAnotherAccount
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(90)]

SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


@pytest.fixture(scope="module")
def sandbox() -> Iterator[str]:
    with sandbox_process("--job-seconds", "0.3") as url:
        yield url


def same_profile(journal_path: Path) -> SpendGate:
    return SpendGate(
        SpendJournal(journal_path), profile="default", policy=SpendPolicy(0, read_only=False)
    )


async def test_a_crashed_spend_is_resent_only_under_its_own_account(
    sandbox: str, tmp_path: Path
) -> None:
    journal_path = tmp_path / "journal.sqlite3"
    key = new_idempotency_key()
    async with (
        LeadClient(sandbox, "sk_demo_full") as owner,
        LeadClient(sandbox.replace("127.0.0.1", "localhost"), "sk_demo_low") as other,
        httpx.AsyncClient(base_url=sandbox) as control,
    ):
        search = await owner.searches.create(SEARCH)
        await crash_after_sending(sandbox, journal_path, search.searchId, 2, key, "sk_demo_full")
        charged = (await owner.me()).credits
        assert charged == 10_000 - 2

        # The next start signs in with another account's key, on the same profile and server.
        gate = same_profile(journal_path)
        assert await gate.pending(other) == []
        [intent] = gate.journal.pending()
        with pytest.raises(IntentOfAnotherAccount):
            await gate.resend(intent, other)
        unlocks = [
            r
            for r in (await control.get("/_sandbox/requests")).json()["data"]
            if r["method"] == "POST" and r["path"].endswith("/exports")
        ]
        assert [r["idempotency_key"] for r in unlocks] == [key]  # only the crashed send
        assert (await other.me()).credits == 5
        assert gate.journal.get(key) == intent  # still pending, still offered to its account

        # Signed in again as the owner: offered, resent with its key, charged once.
        [offered] = await same_profile(journal_path).pending(owner)
        result = await gate.resend(offered, owner)
        assert result.record.idempotency_key == key
        assert (await owner.me()).credits == charged
    settled = gate.journal.get(key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
