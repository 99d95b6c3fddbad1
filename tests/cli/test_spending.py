"""The agent rule, enforced: `unlock` and `extractions create|launch` send nothing unless the
amount was authorized (a prompt, --max-credits, the budget for a stated price, --yes for a
launch); every spend goes through the journal; an unknown outcome exits 8 and stays pending."""

from __future__ import annotations

import json

import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.cli.conftest import Cli, Ran
from tests.cli.faults import AnswerLost, PriceDropped

EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


def nothing_spent(cli: Cli, credits_before: int) -> None:
    assert cli.spending_requests() == []
    assert cli.credits() == credits_before
    assert not cli.journal_path.exists() or SpendJournal(cli.journal_path).history() == []


def test_unauthorized_unlock_exits_10_with_the_quote_and_sends_nothing(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "12", "--json")
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert ran.error["code"] == "confirmation_required"
    quote = ran.error["quote"]
    assert (quote["units"], quote["price"], quote["total"]) == (12, 1, 12)
    assert (quote["balance"], quote["balance_after"]) == (10_000, 9_988)
    assert quote["price_source"] == "stated by the server"
    assert "--max-credits 12" in ran.error["hint"]
    nothing_spent(cli, 10_000)


def test_max_credits_below_the_quote_is_over_ceiling_and_sends_nothing(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "12", "--max-credits", "11", "--yes", "--json")
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert ran.error["code"] == "over_ceiling"
    assert ran.error["quote"]["total"] == 12
    nothing_spent(cli, 10_000)


def test_max_credits_covering_the_quote_spends_once_through_the_journal(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "12", "--max-credits", "12", "--json")
    assert ran.code == Exit.OK
    assert ran.doc["status"] == "queued"
    assert ran.doc["additional_results"] == 12
    assert cli.credits() == 10_000 - 12
    (request,) = cli.spending_requests()
    (intent,) = SpendJournal(cli.journal_path).history()
    assert intent.idempotency_key == request["idempotency_key"]
    assert intent.outcome is SpendOutcome.SUCCEEDED
    assert intent.amount == 12


def test_dry_run_prints_the_quote_and_sends_nothing(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run(
        "unlock", search_id, "--results", "5", "--max-credits", "5", "--dry-run", "--json"
    )
    assert ran.code == Exit.OK
    assert ran.doc["dry_run"] is True
    assert ran.doc["quote"]["total"] == 5
    assert ran.doc["authorized_by"] == "max-credits"
    assert ran.doc["still_locked"] > 5
    wanting = cli.run("unlock", search_id, "--results", "50000", "--dry-run")
    assert "only " in wanting.out  # more than the search has left: said before anything is sent
    table = cli.run("unlock", search_id, "--results", "5", "--dry-run")
    assert table.code == Exit.OK
    assert "10,000 credits → 9,995 credits" in table.out
    assert "not authorized" in table.out
    nothing_spent(cli, 10_000)


def test_the_budget_covers_a_stated_price_within_it_only(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "20")
    search_id = cli.new_search()
    over = cli.run("unlock", search_id, "--results", "21", "--json")
    assert over.code == Exit.CONFIRMATION_REQUIRED
    within = cli.run("unlock", search_id, "--results", "20", "--json")
    assert within.code == Exit.OK
    assert cli.credits() == 10_000 - 20


def test_a_price_the_server_did_not_state_is_never_covered_by_the_budget(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "1000")
    search_id = cli.new_search()
    proxy = PriceDropped(cli.transport)
    ran = cli.run("unlock", search_id, "--results", "3", "--json", transport=proxy)
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert ran.error["quote"]["price_is_known"] is False
    assert ran.error["quote"]["price_source"].startswith("our default")
    nothing_spent(cli, 10_000)
    covered = cli.run("unlock", search_id, "--results", "3", "--max-credits", "3", "--json")
    assert covered.code == Exit.OK


def test_read_only_blocks_every_spend(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_READ_ONLY", "true")
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "1", "--max-credits", "100", "--yes", "--json")
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert ran.error["code"] == "read_only"
    launch = cli.run(
        "extractions", "create", "--file", "-", "--yes", "--json", stdin=json.dumps(EXTRACTION)
    )
    assert launch.code == Exit.CONFIRMATION_REQUIRED
    assert launch.error["code"] == "read_only"
    nothing_spent(cli, 10_000)


def test_at_a_terminal_the_prompt_shows_the_quote_and_defaults_to_no(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "1500", terminal=True, answer="\n")
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert "Spend 1,500 credits? [y/N]" in ran.err
    assert "1 credit per result (stated by the server)" in ran.err
    assert "10,000 credits → 8,500 credits" in ran.err
    nothing_spent(cli, 10_000)
    yes = cli.run("unlock", search_id, "--results", "1500", terminal=True, answer="y\n")
    assert yes.code == Exit.OK
    assert cli.credits() == 8_500


def test_yes_skips_the_prompt_only_within_max_credits(cli: Cli) -> None:
    search_id = cli.new_search()
    alone = cli.run("unlock", search_id, "--results", "2", "--yes", terminal=True, answer="n")
    assert alone.code == Exit.CONFIRMATION_REQUIRED
    assert len(cli.prompts) == 1
    asked = cli.run(
        "unlock", search_id, "--results", "2", "--max-credits", "2", terminal=True, answer="y"
    )
    assert asked.code == Exit.OK
    assert len(cli.prompts) == 2
    within = cli.run(
        "unlock", search_id, "--results", "2", "--max-credits", "2", "--yes", terminal=True
    )
    assert within.code == Exit.OK
    assert len(cli.prompts) == 2
    assert cli.credits() == 10_000 - 4


def test_extractions_create_and_launch_need_yes_off_a_terminal(cli: Cli) -> None:
    before = cli.control("PATCH", "/_sandbox/accounts/acct_demo", {})["launches_used"]
    refused = cli.run(
        "extractions", "create", "--file", "-", "--json", stdin=json.dumps(EXTRACTION)
    )
    assert refused.code == Exit.CONFIRMATION_REQUIRED
    assert refused.error["quote"]["unit"] == "launch"
    assert cli.spending_requests() == []
    created = cli.run(
        "extractions", "create", "--file", "-", "--yes", "--json", stdin=json.dumps(EXTRACTION)
    )
    assert created.code == Exit.OK
    assert created.doc["status"] in ("queued", "running")
    draft = cli.run("extractions", "draft", "--file", "-", "--json", stdin=json.dumps(EXTRACTION))
    assert draft.doc["status"] == "draft"
    draft_id = draft.doc["extractionId"]
    dry = cli.run("extractions", "launch", draft_id, "--dry-run", "--json")
    assert dry.doc["refused"] == "confirmation_required"
    asked = cli.run("extractions", "launch", draft_id, terminal=True, answer="no")
    assert asked.code == Exit.CONFIRMATION_REQUIRED
    launched = cli.run("extractions", "launch", draft_id, "--yes", "--json")
    assert launched.code == Exit.OK
    after = cli.control("PATCH", "/_sandbox/accounts/acct_demo", {})["launches_used"]
    assert after - before == 2
    assert len(cli.spending_requests()) == 2


def test_a_short_balance_is_refused_before_sending_in_the_servers_words(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_low")  # 5 credits
    search_id = cli.new_search()
    cli.control("PATCH", "/_sandbox/accounts/acct_low", {"credits": 5})
    low_search = cli.new_search(key="sk_demo_low")
    ran = cli.run("unlock", low_search, "--results", "6", "--max-credits", "6", "--json")
    assert ran.code == Exit.CONFLICT
    assert ran.error["code"] == "insufficient_credits"
    assert ran.error["message"] == (
        "Unlocking 6 results costs 6 credits; the account has 5. Nothing was sent."
    )
    assert ran.error["quote"]["balance"] == 5
    assert cli.spending_requests() == []
    assert SpendJournal(cli.journal_path).history() == []
    assert search_id  # Demo Co's search is not this account's
    missing = cli.run("unlock", search_id, "--results", "1", "--max-credits", "1", "--json")
    assert missing.code == Exit.NOT_FOUND


def unlock_with_the_answer_lost(cli: Cli, results: int) -> tuple[Ran, AnswerLost]:
    """An unlock the server carries out, whose every answer is lost on the way back."""
    lossy = AnswerLost(cli.transport, "/exports")
    count = str(results)
    argv = ("unlock", cli.new_search(), "--results", count, "--max-credits", count, "--json")
    return cli.run(*argv, transport=lossy), lossy


def test_an_unknown_outcome_exits_8_stays_pending_and_resend_debits_once(cli: Cli) -> None:
    ran, lossy = unlock_with_the_answer_lost(cli, 4)
    assert ran.code == Exit.OUTCOME_UNKNOWN
    assert ran.error["code"] == "outcome_unknown"
    key = ran.error["idempotency_key"]
    assert f"leadtui pending resend {key}" in ran.error["hint"]
    assert lossy.lost == 4  # the first try and three retries, all with the same key
    assert {r["idempotency_key"] for r in cli.spending_requests()} == {key}
    assert cli.credits() == 10_000 - 4  # the server acted once

    listed = cli.run("pending", "list", "--json")
    assert [i["idempotency_key"] for i in listed.doc["data"]] == [key]
    assert listed.doc["data"][0]["amount"] == 4
    table = cli.run("pending", "list")
    assert key in table.out

    resent = cli.run("pending", "resend", key[:8], "--json")
    assert resent.code == Exit.OK
    assert resent.doc["additional_results"] == 4
    assert cli.credits() == 10_000 - 4  # the same key: never a second debit
    assert cli.run("pending", "list", "--json").doc["data"] == []
    again = cli.run("pending", "resend", key, "--json")
    assert again.code == Exit.NOT_FOUND


def test_pending_discard_stops_offering_an_intent(cli: Cli) -> None:
    key = unlock_with_the_answer_lost(cli, 1)[0].error["idempotency_key"]
    discarded = cli.run("pending", "discard", key, "--json")
    assert discarded.code == Exit.OK
    assert discarded.doc["outcome"] == "discarded"
    assert cli.run("pending", "list", "--json").doc["data"] == []


def test_results_outside_the_request_bounds_are_refused_locally(cli: Cli) -> None:
    search_id = cli.new_search()
    for count in ("0", "50001"):
        ran = cli.run("unlock", search_id, "--results", count, "--max-credits", "99999", "--json")
        assert ran.code == Exit.USAGE
        assert ran.error["code"] == "invalid_request"
    nothing_spent(cli, 10_000)


def test_a_pending_spend_is_offered_and_resent_only_to_its_account(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = unlock_with_the_answer_lost(cli, 2)[0].error["idempotency_key"]
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_low")  # another account, same profile
    assert cli.run("pending", "list", "--json").doc["data"] == []
    elsewhere = cli.run("pending", "resend", key, "--json")
    assert elsewhere.code == Exit.NOT_FOUND
    assert cli.credits("acct_low") == 5
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    assert cli.run("pending", "resend", key, "--json").code == Exit.OK
    assert cli.credits() == 10_000 - 2
