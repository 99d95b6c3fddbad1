"""Who asked for a journaled spend and who approved it: the rule History and `pending` read."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from leadtui.spend.approval_parties import ApprovedSpends
from leadtui.spend.approval_records import Party, Verdict
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from leadtui.spend.intent import SpendIntent
from leadtui.spend.journal import canonical_body_hash
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import DEMO
from tests.spend.test_approvals import answer, ask, unlock

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
def desk(tmp_path: Path) -> ApprovalDesk:
    return ApprovalDesk(approvals_folder(tmp_path / "state" / "journal.sqlite3"))


def test_a_spend_approved_in_the_app_names_its_asker_and_the_app(desk: ApprovalDesk) -> None:
    request = unlock()
    desk.answer(ask(desk, request), answer(request))

    parties = ApprovedSpends.read(desk).parties(intent_of(request, "cli", "confirmation"))

    assert (parties.asked_by, parties.approved_by) == (f"command line ({PID})", f"app ({PID})")
    doc = parties.to_json()
    assert doc["asked_by"]["name"] == "command line"
    assert doc["approved_by"]["name"] == "leadtui app"


@pytest.mark.parametrize(
    "changes",
    [{"verdict": Verdict.DENIED}, {"body_sha256": canonical_body_hash({"x": 1})}],
    ids=["denied", "an approval of another body"],
)
def test_no_approval_of_exactly_that_spend_names_its_own_surface(
    desk: ApprovalDesk, changes: dict[str, object]
) -> None:
    request = unlock()
    desk.answer(ask(desk, request), answer(request, **changes))

    parties = ApprovedSpends.read(desk).parties(intent_of(request, "cli", "max-credits"))

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
    tmp_path: Path, surface: str, authorized_by: str | None, words: tuple[str, str]
) -> None:
    nothing = ApprovedSpends.read(ApprovalDesk(tmp_path / "no such folder"))

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
