"""A SpendRequest carries its Quote (one set of figures for the modal, the prompt and the
gate); policy.py holds the one confirmation rule; a key that cannot be sent is refused before
anything is journaled; every refusal has its own type and title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.keys import idempotency_key_problem
from leadtui.api.models import Search
from leadtui.config.settings import SpendPolicy
from leadtui.spend import decision as decision_module
from leadtui.spend import errors
from leadtui.spend.decision import Authorization, Budget, Facts, Surface, Verdict, judge
from leadtui.spend.errors import SpendBlocked
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import PriceSource, Quote
from leadtui.spend.request import SpendRequest
from tests.spend.conftest import DEMO, gate
from tests.support import spend_requests

SRC = Path(__file__).resolve().parents[2] / "src" / "leadtui"


def search(price: object = None) -> Search:
    return Search.model_validate(
        {"searchId": "srch_1", "result_count": 900, "unlocked_count": 0, "summary": "Bakery"}
        | ({} if price is None else {"price_per_result": price})
    )


def test_a_request_is_built_from_its_quote_and_journals_its_credits(tmp_path: Path) -> None:
    quote = Quote.unlock(search(3), 40, balance=500)
    request = SpendRequest.for_unlock(quote, "srch_1")
    assert request.quote is quote
    assert (request.operation, request.amount, request.quote.price_is_known) == (
        SpendOperation.UNLOCK,
        120,
        True,
    )
    assert request.params == {"search_id": "srch_1", "additional_results": 40}
    assert request.body == {"additional_results": 40}
    journal = SpendJournal(tmp_path / "journal.sqlite3")
    intent = spend_requests.journal_intent(gate(journal), request, "http://127.0.0.1", DEMO)
    assert intent.amount == quote.credits == 120
    # The shorthand reaches the same figures through the same fallback.
    assert spend_requests.unlock("srch_1", 40, price_per_result=3).amount == 120
    assert spend_requests.unlock("srch_1", 40).quote.price_source is PriceSource.DEFAULT


def test_a_quote_that_does_not_fit_the_operation_is_refused() -> None:
    launch = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, "ext_1", 3)
    with pytest.raises(ValueError, match="unlock quote"):
        SpendRequest.for_unlock(launch, "srch_1")
    with pytest.raises(ValueError, match=r"extraction\.create"):
        SpendRequest.for_extraction(launch, {"categories": ["x"]})
    with pytest.raises(ValueError, match=r"extraction\.launch"):
        SpendRequest.for_launch(Quote.unlock(search(), 1, None), "ext_1")
    assert SpendRequest.for_launch(launch, "ext_1").amount is None


@pytest.mark.parametrize(
    ("quote", "budget", "asks"),
    [
        (Quote.unlock(search(1), 50, None), 50, False),
        (Quote.unlock(search(1), 51, None), 50, True),
        (Quote.unlock(search(2), 25, None), 50, False),
        (Quote.unlock(search(2), 26, None), 50, True),
        (Quote.unlock(search(None), 1, None), 10_000, True),  # our default price
        (Quote.unlock(search(0), 1, None), 10_000, True),  # a price rewritten to 0
        (Quote.launch(SpendOperation.EXTRACTION_CREATE, "new", 10), 10_000, True),
        (Quote.launch(SpendOperation.EXTRACTION_LAUNCH, "ext_1", 10), 10_000, True),
    ],
)
def test_one_rule_decides_what_needs_confirming(quote: Quote, budget: int, asks: bool) -> None:
    facts = Facts(quote, SpendPolicy(budget, read_only=False), Budget(budget, 0), "k")
    decision = judge(facts, Authorization(Surface.APP))
    assert (decision.verdict is Verdict.ASK) is asks
    assert (decision.verdict is Verdict.SEND) is not asks


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("", "the idempotency key is empty"),
        ("k" * 129, "the idempotency key has 129 characters; at most 128"),
        ("abc\u2019d", "character 4 of the idempotency key is not printable ASCII"),
        ("tab\there", "character 4 of the idempotency key is not printable ASCII"),
        ("line\n", "character 5 of the idempotency key is not printable ASCII"),
    ],
)
def test_a_key_that_cannot_be_sent_is_refused_before_journaling(
    tmp_path: Path, key: str, problem: str
) -> None:
    assert idempotency_key_problem(key) == problem
    with pytest.raises(InvalidIdempotencyKey, match=re.escape(problem)):
        SpendRequest(Quote.unlock(search(), 1, None), {"search_id": "srch_1"}, None, key)
    journal = SpendJournal(tmp_path / "journal.sqlite3")
    with pytest.raises(InvalidIdempotencyKey):
        journal.record_intent(
            idempotency_key=key,
            operation=SpendOperation.UNLOCK,
            params={},
            body=None,
            amount=1,
            profile="default",
            origin="http://127.0.0.1",
            account=DEMO,
        )
    assert journal.history() == []
    assert idempotency_key_problem("k" * 128) is None
    assert idempotency_key_problem("a b~!") is None


def test_every_refusal_has_its_own_type_and_title() -> None:
    causes = [
        decision_module.ReadOnlyProfile,
        decision_module.ConfirmationRequired,
        decision_module.SpendRefused,
        errors.IntentMissing,
        errors.IntentSettled,
        errors.IntentOfAnotherAccount,
        errors.IntentClaimed,
    ]
    titles = {cause.title for cause in causes}
    assert len(titles) == len(causes)
    assert SpendBlocked.title not in titles
    for cause in causes:
        assert issubclass(cause, SpendBlocked)
        refused = cause("Nothing was sent.")
        assert (refused.message, str(refused)) == ("Nothing was sent.", "Nothing was sent.")


def test_short_key_is_the_one_way_to_shorten_a_key() -> None:
    sliced = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        if path.parts[-2] in ("spend", "ui", "dialogs", "screens", "cli", "config")
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if "[:8]" in line
    ]
    assert sliced == []
