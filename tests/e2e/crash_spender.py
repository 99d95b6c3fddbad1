"""A spender that dies between sending and recording: run as a child process, then SIGKILLed.

`python crash_spender.py BASE_URL JOURNAL SEARCH_ID N KEY` (the API key in LEADTUI_API_KEY)
journals the intent
(as `SpendGate.spend` does first), sends the unlock with that key, prints `SENT`
and then waits to be killed, so the outcome is never recorded. Nothing in src knows this
script exists.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.config.settings import SpendPolicy
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest

PROFILE = "default"


async def main(base_url: str, journal_path: str, search_id: str, n: int, key: str) -> None:
    gate = SpendGate(
        SpendJournal(Path(journal_path)), profile=PROFILE, policy=SpendPolicy(0, read_only=False)
    )
    request = SpendRequest.for_unlock(Quote.unlock_at(search_id, n, None, None), search_id, key)
    async with LeadClient(base_url, max_retries=3, timeout=5.0) as client:
        gate.journal.record_intent(
            idempotency_key=key,
            operation=request.operation,
            params=request.params,
            body=request.body_text,
            amount=request.amount,
            profile=PROFILE,
            origin=client.base_url,
            account=await gate.account_of(client),
        )
        try:
            export = await client.exports.create(search_id, n, idempotency_key=key)
            print(f"SENT {export.exportId}", flush=True)
        except LeadError as exc:
            # The answer was lost on the way; the intent is just as pending.
            print(f"SENT ? {type(exc).__name__}", flush=True)
        # The crash window: sent, outcome not yet recorded. The parent kills us here.
        await asyncio.Event().wait()


if __name__ == "__main__":
    url, path, search, count, idem = sys.argv[1:6]
    asyncio.run(main(url, path, search, int(count), idem))
