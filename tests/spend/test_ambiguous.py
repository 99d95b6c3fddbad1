"""Once the server may have acted on a spend, no later 4xx settles it as rejected.

The first attempt commits and its answer is lost (502); the retry with the same key is refused
before the server looks the key up (403: the subscription lapsed meanwhile; after a crash, 401:
the key was revoked). The account was charged: the journal must not say "rejected"."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import Forbidden
from leadtui.spend.errors import SpendOutcomeUnknown
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.spend.conftest import DEMO, SEARCH, credits, gate, journal_unlock, no_sleep
from tests.support import spend_requests

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class LoseTheFirstUnlockAnswer:
    """A gateway in front of the sandbox: the first unlock reaches it and commits, then the
    subscription lapses and the client gets a 502 instead of the answer."""

    def __init__(self, sandbox_app: Any) -> None:
        self.app = sandbox_app
        self.struck = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        is_unlock = scope["type"] == "http" and scope["path"].endswith("/exports")
        if not is_unlock or scope["method"] != "POST" or self.struck:
            await self.app(scope, receive, send)
            return
        self.struck = True

        async def swallow(_message: Message) -> None:
            return None

        await self.app(scope, receive, swallow)
        await set_subscription(self.app, "inactive")
        body = b"<html>502 Bad Gateway</html>"
        await send(
            {
                "type": "http.response.start",
                "status": 502,
                "headers": [(b"content-type", b"text/html"), (b"content-length", b"28")],
            }
        )
        await send({"type": "http.response.body", "body": body})


async def set_subscription(sandbox_app: Any, status: str) -> None:
    transport = httpx.ASGITransport(app=sandbox_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as control:
        changed = await control.patch(
            "/_sandbox/accounts/acct_demo", json={"subscription_status": status}
        )
        changed.raise_for_status()


async def test_a_403_after_a_lost_answer_leaves_the_charged_spend_pending(
    sandbox_app: Any, journal: SpendJournal
) -> None:
    gateway = LoseTheFirstUnlockAnswer(sandbox_app)
    async with LeadClient(
        "http://127.0.0.1",
        "sk_demo_full",
        transport=httpx.ASGITransport(app=gateway),
        max_retries=2,
        sleep=no_sleep,
    ) as client:
        search = await client.searches.create(SEARCH)
        request = spend_requests.unlock(search.searchId, 6)
        with pytest.raises(SpendOutcomeUnknown) as caught:
            await spend_requests.execute(gate(journal), request, client, confirmed=True)
        assert gateway.struck
        assert isinstance(caught.value.error, Forbidden)
        assert caught.value.error.code == "subscription_inactive"
        assert caught.value.error.request_id  # shown to the user with the code
        await set_subscription(sandbox_app, "active")
        assert await credits(client) == 10_000 - 6  # the server did charge it

    intent = journal.get(request.idempotency_key)
    assert intent is not None
    assert intent.pending, intent.outcome
    assert (intent.attempts, intent.last_error) == (2, "subscription_inactive")


async def test_a_resend_refused_with_a_4xx_stays_pending(
    make_client: Callable[..., LeadClient], sandbox_app: Any, journal: SpendJournal
) -> None:
    client = make_client("sk_demo_full")
    search = await client.searches.create(SEARCH)
    # A run sent this unlock (the server charged it) and crashed before recording the answer.
    intent = journal_unlock(journal, "ik-crashed", search_id=search.searchId, results=3)
    await client.exports.create(search.searchId, 3, idempotency_key=intent.idempotency_key)
    await set_subscription(sandbox_app, "inactive")

    spender = gate(journal)
    with pytest.raises(SpendOutcomeUnknown) as caught:
        await spender.resend(intent, client)
    assert caught.value.error.code == "subscription_inactive"
    [still] = journal.pending(account=DEMO)
    assert (still.idempotency_key, still.attempts, still.last_error) == (
        "ik-crashed",
        1,
        "subscription_inactive",
    )

    # When the subscription is back, the resend gets the first answer again: one debit.
    await set_subscription(sandbox_app, "active")
    result = await spender.resend(still, client)
    assert result.record.idempotency_key == "ik-crashed"
    assert await credits(client) == 10_000 - 3
    settled = journal.get("ik-crashed")
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
    assert settled.attempts == 2


async def test_a_4xx_to_a_first_clean_attempt_is_still_a_rejection(
    make_client: Callable[..., LeadClient], sandbox_app: Any, journal: SpendJournal
) -> None:
    client = make_client("sk_demo_full")
    search = await client.searches.create(SEARCH)
    await set_subscription(sandbox_app, "inactive")
    request = spend_requests.unlock(search.searchId, 2)
    with pytest.raises(Forbidden):
        await spend_requests.execute(gate(journal), request, client, confirmed=True)
    rejected = journal.get(request.idempotency_key)
    assert rejected is not None
    assert rejected.outcome is SpendOutcome.REJECTED
    assert rejected.outcome_detail["code"] == "subscription_inactive"
