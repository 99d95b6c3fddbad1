"""SpendGate against the sandbox: confirm over budget, block when read-only, journal before
sending, and after a lost answer resend with the same key so the account is debited once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError, Conflict, ServerError
from leadtui.api.models import Export, Extraction, ExtractionRequest
from leadtui.spend.decision import (
    Authorization,
    Budget,
    ConfirmationRequired,
    Facts,
    ReadOnlyProfile,
    SpendRefused,
    Surface,
    Verdict,
    judge,
)
from leadtui.spend.errors import (
    Code,
    IntentOfAnotherAccount,
    IntentSettled,
    SpendBlocked,
    SpendOutcomeUnknown,
)
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import (
    SEARCH,
    credits,
    faults,
    gate,
    journal_unlock,
    no_sleep,
    spend_attempts,
)
from tests.support import spend_requests
from tests.support.pages import every

MakeClient = Callable[..., LeadClient]

EXTRACTION = ExtractionRequest(
    categories=["bakery"], countries=["FR"], localisations=["Paris"], enrichment_sources=["web"]
)


def _asks(journal: SpendJournal, request: SpendRequest, budget: int = 0) -> bool:
    policy = gate(journal, budget=budget).policy
    facts = Facts(request.quote, policy, Budget(budget, 0), request.idempotency_key)
    return judge(facts, Authorization(Surface.APP)).verdict is Verdict.ASK


def test_confirmation_follows_the_budget(journal: SpendJournal) -> None:
    def unlock(n: int) -> SpendRequest:
        return spend_requests.unlock("srch_1", n, price_per_result=1)

    assert _asks(journal, unlock(1))
    assert not _asks(journal, unlock(50), budget=50)
    assert _asks(journal, unlock(51), budget=50)
    # A spend that is not priced in credits is always confirmed.
    assert _asks(journal, spend_requests.extraction_create(EXTRACTION), budget=10_000)


@pytest.mark.parametrize("stated", [None, 0, -1, 1.5, "1", True])
def test_a_price_the_server_does_not_state_usably_is_always_confirmed(
    journal: SpendJournal, stated: object
) -> None:
    # A proxy that rewrites the price to 0 must not turn "always ask" into "never ask".
    request = spend_requests.unlock("srch_1", 100, price_per_result=stated)
    assert request.amount == 100  # our stated default: 1 credit per result
    assert _asks(journal, request, budget=0)
    assert _asks(journal, request, budget=10_000)


def test_a_request_knows_its_cost_and_key_before_confirmation() -> None:
    request = spend_requests.unlock("srch_1", 40, price_per_result=2)
    assert request.amount == 80
    assert request.short_key == request.idempotency_key[:8]
    assert spend_requests.unlock("srch_1", 40).amount == 40
    assert spend_requests.unlock("srch_1", 40).idempotency_key != request.idempotency_key
    with pytest.raises(ValueError, match="additional_results"):
        spend_requests.unlock("srch_1", 50_001)


async def test_unconfirmed_spend_over_budget_sends_nothing(
    client: LeadClient, journal: SpendJournal
) -> None:
    search = await client.searches.create(SEARCH)
    with pytest.raises(ConfirmationRequired, match="nothing set in advance covers it"):
        await spend_requests.execute(
            gate(journal),
            spend_requests.unlock(search.searchId, 3, price_per_result=search.price_per_result),
            client,
        )
    assert journal.history() == []
    assert await credits(client) == 10_000


async def test_confirmed_unlock_is_journaled_and_settled(
    client: LeadClient, journal: SpendJournal
) -> None:
    search = await client.searches.create(SEARCH)
    request = spend_requests.unlock(search.searchId, 25)
    result = await spend_requests.execute(gate(journal), request, client, confirmed=True)
    assert isinstance(result.record, Export)
    assert result.record.idempotency_key == request.idempotency_key
    assert await credits(client) == 10_000 - 25
    settled = journal.get(request.idempotency_key)
    assert settled is not None
    assert settled.operation is SpendOperation.UNLOCK
    assert settled.outcome is SpendOutcome.SUCCEEDED
    assert settled.outcome_detail["id"] == result.record.exportId
    assert settled.params == {"search_id": search.searchId, "additional_results": 25}
    assert settled.origin == "http://localhost"
    assert settled.account.id == "acct_demo"
    assert journal.pending() == []
    # The journal never holds the key.
    assert b"sk_demo_full" not in journal.path.read_bytes()


async def test_within_budget_needs_no_confirmation(
    client: LeadClient, journal: SpendJournal
) -> None:
    search = await client.searches.create(SEARCH)
    within = spend_requests.unlock(search.searchId, 10, price_per_result=search.price_per_result)
    await spend_requests.execute(gate(journal, budget=10), within, client)
    assert await credits(client) == 9_990


async def test_read_only_blocks_every_spend(client: LeadClient, journal: SpendJournal) -> None:
    search = await client.searches.create(SEARCH)
    blocked = gate(journal, budget=1_000, read_only=True)
    with pytest.raises(ReadOnlyProfile, match="read_only"):
        blocked.check_allowed()
    with pytest.raises(ReadOnlyProfile, match="Nothing was sent"):
        await spend_requests.execute(
            blocked, spend_requests.unlock(search.searchId, 1), client, confirmed=True
        )
    with pytest.raises(SpendBlocked):
        await spend_requests.execute(
            blocked, spend_requests.extraction_create(EXTRACTION), client, confirmed=True
        )
    assert journal.history() == []
    # Even a resend of an intent left pending earlier is blocked.
    journal_unlock(journal, "ik-earlier", search_id=search.searchId)
    with pytest.raises(ReadOnlyProfile):
        await blocked.resend(journal.pending()[0], client)
    assert await credits(client) == 10_000


async def test_a_definitive_refusal_is_recorded_with_code_and_request_id(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    client = make_client()
    search = await client.searches.create(SEARCH)
    # More results than the search has left: only the server knows, and it refuses.
    request = spend_requests.unlock(search.searchId, (search.result_count or 0) + 1)
    with pytest.raises(Conflict) as caught:
        await spend_requests.execute(gate(journal), request, client, confirmed=True)
    assert caught.value.code == "insufficient_results"
    rejected = journal.get(request.idempotency_key)
    assert rejected is not None
    assert rejected.outcome is SpendOutcome.REJECTED
    assert rejected.outcome_detail["code"] == "insufficient_results"
    assert rejected.outcome_detail["request_id"] == caught.value.request_id
    assert journal.pending() == []


async def test_lost_answer_stays_pending_and_resend_debits_once(
    make_client: MakeClient,
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    journal: SpendJournal,
) -> None:
    client = make_client(max_retries=1, sleep=no_sleep)
    search = await client.searches.create(SEARCH)
    spender = gate(journal)
    request = spend_requests.unlock(search.searchId, 30)

    await spender.account_of(client)  # GET /me before the faults: they are for the spend
    faults(sandbox_app, 1.0, seed=0)
    with pytest.raises(SpendOutcomeUnknown) as caught:
        await spend_requests.execute(spender, request, client, confirmed=True)
    faults(sandbox_app, 0.0)
    attempts = await spend_attempts(sandbox_http)
    # The server did the work and the answer was spoiled: the case only the key makes safe.
    assert any(a["fault"] in ("502", "cut") for a in attempts), attempts
    assert await credits(client) == 10_000 - 30
    assert caught.value.idempotency_key == request.idempotency_key
    [pending] = await spender.pending(client)
    assert pending.idempotency_key == request.idempotency_key
    assert pending.attempts == 2
    assert pending.last_error in ("bad_gateway", "network", "internal_error")

    # Next start: the journal offers the intent; resending it uses the same key.
    reopened = gate(SpendJournal(journal.path))
    [offered] = await reopened.pending(client)
    result = await reopened.resend(offered, client)
    assert isinstance(result.record, Export)
    assert await credits(client) == 10_000 - 30
    assert {a["idempotency_key"] for a in await spend_attempts(sandbox_http)} == {
        request.idempotency_key
    }
    assert [e.exportId for e in await every(client.exports.list)] == [result.record.exportId]
    assert await reopened.pending(client) == []
    with pytest.raises(IntentSettled, match="already succeeded"):
        await reopened.resend(offered, client)


async def test_server_errors_after_retries_leave_the_intent_pending(
    make_client: MakeClient, sandbox_app: Any, journal: SpendJournal
) -> None:
    client = make_client(max_retries=2, sleep=no_sleep)
    search = await client.searches.create(SEARCH)
    spender = gate(journal)
    await spender.account_of(client)
    faults(sandbox_app, 1.0, seed=14)  # 503s every time: refused before any work
    with pytest.raises(SpendOutcomeUnknown) as caught:
        await spend_requests.execute(
            spender, spend_requests.unlock(search.searchId, 5), client, confirmed=True
        )
    faults(sandbox_app, 0.0)
    assert isinstance(caught.value.error, ServerError)
    assert caught.value.error.status == 503
    assert await credits(client) == 10_000
    [pending] = await spender.pending(client)
    assert (pending.attempts, pending.last_error) == (3, "internal_error")
    await spender.resend(pending, client)
    assert await credits(client) == 10_000 - 5
    assert await spender.pending(client) == []


async def test_extraction_create_and_launch_go_through_the_gate(
    make_client: MakeClient, journal: SpendJournal
) -> None:
    low = make_client("sk_demo_low")  # one launch of quota
    spender = gate(journal)
    created = spend_requests.extraction_create(EXTRACTION)
    assert created.amount is None
    result = await spend_requests.execute(spender, created, low, confirmed=True)
    assert isinstance(result.record, Extraction)
    # Sending the same intent again replays it: the quota is not consumed twice.
    journal_row = journal.get(created.idempotency_key)
    assert journal_row is not None
    assert journal_row.params == {"request": EXTRACTION.to_body()}
    # None left now: refused before sending, in the words of the server's 409.
    with pytest.raises(SpendRefused) as refused:
        await spend_requests.execute(
            spender, spend_requests.extraction_create(EXTRACTION), low, confirmed=True
        )
    assert refused.value.decision is not None
    assert refused.value.decision.code is Code.NO_LAUNCHES_LEFT

    full = make_client("sk_demo_full")
    draft = await full.extractions.create_draft(EXTRACTION.to_body())
    launch = spend_requests.extraction_launch(draft.extractionId)
    launched = await spend_requests.execute(spender, launch, full, confirmed=True)
    assert isinstance(launched.record, Extraction)
    assert launched.record.extractionId == draft.extractionId
    assert launched.record.status != "draft"
    settled = journal.get(launch.idempotency_key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
    assert settled.operation is SpendOperation.EXTRACTION_LAUNCH


async def test_resend_refuses_another_profiles_intent(
    client: LeadClient, journal: SpendJournal
) -> None:
    journal_unlock(journal, "ik-work", search_id="srch_x", profile="work")
    [intent] = journal.pending()
    with pytest.raises(IntentOfAnotherAccount, match="profile 'work'") as caught:
        await gate(journal).resend(intent, client)
    assert isinstance(caught.value, SpendBlocked)
    assert journal.pending() == [intent]


async def test_a_launch_whose_id_cannot_be_sent_is_settled_as_refused_not_left_pending(
    client: LeadClient, journal: SpendJournal, sandbox_http: httpx.AsyncClient
) -> None:
    # An id the server gave that cannot be one path segment: the client refuses it before any
    # request, so the spend is known not to have happened and is not left pending.
    request = spend_requests.extraction_launch("ext_1/launch", launches_left=5)
    with pytest.raises(ConfigurationError, match="nothing was sent"):
        await spend_requests.execute(gate(journal), request, client, confirmed=True)
    settled = journal.get(request.idempotency_key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.REJECTED
    assert settled.outcome_detail["code"] == "invalid_request"
    assert journal.pending() == []
    sent = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert [r["path"] for r in sent if r["method"] == "POST"] == []
