"""The command line renders the one spend decision: a caller's idempotency key, a pending
identical spend, --json and --no-input that never prompt, --max-launches, a dry run the balance
cannot cover, an overcharge reported, and Ctrl-C or SIGTERM mid-spend leaving a named pending
key (exit 8)."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.spend.journal import SpendJournal
from tests.cli.conftest import Cli
from tests.cli.faults import AnswerLost

EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


def test_the_same_idempotency_key_returns_the_first_outcome(cli: Cli) -> None:
    search_id = cli.new_search()
    argv = ("unlock", search_id, "--results", "3", "--max-credits", "3", "--json")
    first = cli.run(*argv, "--idempotency-key", "nightly-2026-01-01")
    assert first.code == Exit.OK
    again = cli.run(*argv, "--idempotency-key", "nightly-2026-01-01")
    assert again.code == Exit.OK
    assert again.doc["exportId"] == first.doc["exportId"]
    assert cli.credits() == 10_000 - 3
    assert len(cli.spending_requests()) == 1
    other = cli.run(
        "unlock",
        search_id,
        "--results",
        "4",
        "--max-credits",
        "4",
        "--json",
        "--idempotency-key",
        "nightly-2026-01-01",
    )
    assert other.code == Exit.CONFLICT
    assert other.error["code"] == "idempotency_conflict"
    assert len(cli.spending_requests()) == 1
    bad = cli.run(*argv, "--idempotency-key", "tab\there")
    assert bad.code == Exit.USAGE
    assert len(cli.spending_requests()) == 1


def test_a_spend_like_a_pending_one_is_refused_naming_the_pending_key(cli: Cli) -> None:
    lossy = AnswerLost(cli.transport, "/exports")
    search_id = cli.new_search()
    argv = ("unlock", search_id, "--results", "2", "--max-credits", "2", "--json")
    lost = cli.run(*argv, transport=lossy)
    assert lost.code == Exit.OUTCOME_UNKNOWN
    key = lost.error["idempotency_key"]
    sent = len(cli.spending_requests())
    again = cli.run(*argv)
    assert again.code == Exit.CONFLICT
    assert again.error["code"] == "pending_same_spend"
    assert again.error["pending_key"] == key
    assert f"leadtui pending resend {key}" in again.error["message"]
    assert len(cli.spending_requests()) == sent
    assert cli.run("pending", "resend", key, "--json").code == Exit.OK
    assert cli.credits() == 10_000 - 2


def test_json_never_prompts_and_no_input_refuses_every_prompt(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    search_id = cli.new_search()
    as_json = cli.run("unlock", search_id, "--results", "2", "--json", terminal=True, answer="y")
    assert as_json.code == Exit.CONFIRMATION_REQUIRED
    assert as_json.error["code"] == "confirmation_required"
    assert cli.prompts == []
    flag = cli.run("unlock", search_id, "--results", "2", "--no-input", terminal=True, answer="y")
    assert flag.code == Exit.CONFIRMATION_REQUIRED
    monkeypatch.setenv("LEADTUI_NO_INPUT", "1")
    env = cli.run(
        "extractions",
        "create",
        "--file",
        "-",
        terminal=True,
        answer="y",
        stdin=json.dumps(EXTRACTION),
    )
    assert env.code == Exit.CONFIRMATION_REQUIRED
    assert cli.prompts == []
    assert cli.spending_requests() == []
    assert "Nothing was sent. Nothing was sent." not in flag.err + env.err


def test_max_launches_caps_and_authorizes_launches(cli: Cli) -> None:
    body = json.dumps(EXTRACTION)
    over = cli.run(
        "extractions", "create", "--file", "-", "--max-launches", "0", "--json", stdin=body
    )
    assert over.code == Exit.CONFIRMATION_REQUIRED
    assert over.error["code"] == "over_ceiling"
    assert "--max-launches 1" in over.error["hint"]
    assert cli.spending_requests() == []
    within = cli.run(
        "extractions", "create", "--file", "-", "--max-launches", "1", "--json", stdin=body
    )
    assert within.code == Exit.OK
    negative = cli.run("extractions", "launch", "ext_x", "--max-launches", "-1", "--json")
    assert negative.code == Exit.USAGE
    cli.control("PATCH", "/_sandbox/accounts/acct_demo", {"extraction_quota": 0})
    none_left = cli.run(
        "extractions", "create", "--file", "-", "--max-launches", "1", "--json", stdin=body
    )
    assert none_left.code == Exit.CONFLICT
    assert none_left.error["code"] == "no_launches_left"
    assert len(cli.spending_requests()) == 1


def test_a_dry_run_the_balance_cannot_cover_says_so(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_low")
    cli.control("PATCH", "/_sandbox/accounts/acct_low", {"credits": 5})
    search_id = cli.new_search(key="sk_demo_low")
    dry = cli.run(
        "unlock", search_id, "--results", "10", "--max-credits", "10", "--dry-run", "--json"
    )
    assert dry.code == Exit.OK
    assert dry.doc["authorized_by"] is None
    assert dry.doc["refused"] == "insufficient_credits"
    assert dry.doc["decision"]["verdict"] == "refuse"
    assert dry.doc["quote"]["balance_after"] == -5
    table = cli.run("unlock", search_id, "--results", "10", "--max-credits", "10", "--dry-run")
    assert "not authorized (insufficient_credits)" in table.out
    assert "the account has 5" in table.out


def test_an_overcharge_is_reported_with_its_request_id(cli: Cli) -> None:
    cli.control("PUT", "/_sandbox/pricing", {"stated": 1, "charged": 3})
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "10", "--max-credits", "10", "--json")
    assert ran.code == Exit.OK
    assert cli.credits() == 10_000 - 30
    (sent,) = cli.spending_requests()
    assert "Overcharged: the server debited 30 credits" in ran.err
    assert sent["request_id"] in ran.err
    (intent,) = SpendJournal(cli.journal_path).history()
    assert intent.debited == 30
    # The next quote is at the observed price: 10 results now cost 30, over --max-credits 10.
    again = cli.run("unlock", search_id, "--results", "10", "--max-credits", "10", "--json")
    assert again.code == Exit.CONFIRMATION_REQUIRED
    assert again.error["code"] == "over_ceiling"
    assert again.error["quote"]["total"] == 30


def test_pending_json_says_who_spent_it(cli: Cli) -> None:
    lossy = AnswerLost(cli.transport, "/exports")
    argv = ("unlock", cli.new_search(), "--results", "1", "--max-credits", "1", "--json")
    assert cli.run(*argv, transport=lossy).code == Exit.OUTCOME_UNKNOWN
    (listed,) = cli.run("pending", "list", "--json").doc["data"]
    assert (listed["surface"], listed["authorized_by"]) == ("cli", "max-credits")
    assert "cli" in cli.run("pending", "list").out


class Interrupting(httpx.AsyncBaseTransport):
    """Delivers `signum` to this process when the spend is on the wire, and never answers."""

    def __init__(self, inner: httpx.AsyncBaseTransport, signum: int) -> None:
        self.inner = inner
        self.signum = signum

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/exports"):
            os.kill(os.getpid(), self.signum)
            await asyncio.Event().wait()  # until the signal cancels the spend
        return await self.inner.handle_async_request(request)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_spend_prints_its_pending_key_and_exits_8(cli: Cli, signum: int) -> None:
    search_id = cli.new_search()
    stopper = Interrupting(cli.transport, signum)
    argv = ("unlock", search_id, "--results", "2", "--max-credits", "2")
    ran = cli.run(*argv, "--json", transport=stopper)
    assert ran.code == Exit.OUTCOME_UNKNOWN
    key = ran.error["idempotency_key"]
    assert ran.error["code"] == "outcome_unknown"
    assert f"leadtui pending resend {key}" in ran.error["hint"]
    (intent,) = SpendJournal(cli.journal_path).pending()
    assert intent.idempotency_key == key
    plain = cli.run("pending", "discard", key)
    assert plain.code == Exit.OK
    human = cli.run(*argv, transport=stopper)
    assert human.code == Exit.OUTCOME_UNKNOWN
    assert "leadtui pending resend" in human.err
