"""Who asked for a journaled spend and who approved it: the rule History and `pending` read."""

from __future__ import annotations

import dataclasses
import os
from datetime import UTC, datetime

import pytest

from leadtui.spend.approval_parties import ApprovedSpends
from leadtui.spend.approvals import ApprovalDesk, Party, Ruling
from leadtui.spend.intent import SpendIntent
from leadtui.spend.journal import SpendJournal, canonical_body_hash
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import DEMO
from tests.spend.test_approval_rows import answer, ask, unlock

PID = os.getpid()


def intent_of(
    request: SpendRequest | None, surface: str = "cli", authorized_by: str | None = None
) -> SpendIntent:
    """The journal's row of `request` (any unlock when None), made on `surface`."""
    spend = unlock() if request is None else request
    return SpendIntent(
        idempotency_key=spend.idempotency_key,
        operation=spend.operation,
        params=dict(spend.params),
        body_sha256=canonical_body_hash(spend.body),
        amount=spend.quote.total,
        profile="default",
        origin="http://localhost",
        account=DEMO,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        surface=surface,
        authorized_by=authorized_by,
    )


@pytest.fixture
def desk(journal: SpendJournal) -> ApprovalDesk:
    return ApprovalDesk(journal)


def test_a_spend_approved_in_the_app_names_its_asker_and_the_app(desk: ApprovalDesk) -> None:
    request = unlock()
    desk.answer(ask(desk, request), answer(request))

    parties = ApprovedSpends.read(desk).parties(intent_of(request, "cli", "confirmation"))

    assert (parties.asked_by, parties.approved_by) == (f"command line ({PID})", f"app ({PID})")
    doc = parties.to_json()
    assert doc["asked_by"]["name"] == "command line"
    assert doc["approved_by"]["name"] == "leadtui app"


@pytest.mark.parametrize(
    ("verdict", "search_id"),
    [(Ruling.DENIED, "srch_1"), (Ruling.APPROVED, "srch_2")],
    ids=["denied", "approved for another spend under the same key"],
)
def test_no_approval_of_exactly_that_spend_names_its_own_surface(
    desk: ApprovalDesk, verdict: Ruling, search_id: str
) -> None:
    request = unlock()
    desk.answer(ask(desk, request), answer(request, verdict))
    journaled = dataclasses.replace(
        unlock(search_id=search_id), idempotency_key=request.idempotency_key
    )

    parties = ApprovedSpends.read(desk).parties(intent_of(journaled, "cli", "max-credits"))

    assert (parties.asked_by, parties.approved_by) == ("command line", "--max-credits")
    assert parties.to_json() == {"asked_by": None, "approved_by": None}


@pytest.mark.parametrize(
    ("surface", "authorized_by", "words"),
    [
        ("app", "confirmation", ("app", "dialog")),
        ("cli", "confirmation", ("command line", "prompt")),
        ("agent", "confirmation", ("agent", "elicitation")),
        ("agent", "allowance", ("agent", "allowance")),
        ("app", "budget", ("app", "budget")),
        ("cli", "max-launches", ("command line", "--max-launches")),
        ("cli", "replay", ("command line", "—")),
        ("", None, ("—", "—")),
    ],
)
def test_a_spend_authorized_on_its_own_surface_says_how(
    desk: ApprovalDesk, surface: str, authorized_by: str | None, words: tuple[str, str]
) -> None:
    nothing = ApprovedSpends.read(desk)

    parties = nothing.parties(intent_of(None, surface, authorized_by))

    assert (parties.asked_by, parties.approved_by) == words


def test_an_agent_asking_is_named_as_its_client_calls_itself(desk: ApprovalDesk) -> None:
    request = unlock()
    record = desk.ask(
        request,
        asker=Party.here("agent", "claude-code"),
        wait_seconds=120,
        profile="default",
        origin="http://localhost",
        account=DEMO,
    )
    desk.answer(record.id, answer(request))

    parties = ApprovedSpends.read(desk).parties(intent_of(request, "agent", "confirmation"))

    assert parties.asked_by == f"claude-code ({PID})"
