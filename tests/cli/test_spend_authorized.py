"""The scenario table's rows about what was authorized against what is sent and debited, on
the command line: a price raised after the prompt's yes, a server that states a lower debit
than it took (a proxy in front of the sandbox), one balance read when nobody is asked, and the
same key from two processes at once. Each checks the sandbox's request log and the balance."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.spend.account import SpendAccount
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import SpendJournal
from tests.cli.conftest import URL, Cli
from tests.cli.test_process import environment, new_search
from tests.e2e.sandbox_process import sandbox_process
from tests.support.lying_proxy import LyingProxy


def _price(cli: Cli, price: int) -> None:
    """The sandbox's pricing lever, pulled while the command waits at its prompt (the prompt
    runs inside the command's event loop: the lever's request goes from another thread)."""
    body = {"stated": price, "charged": price}
    with ThreadPoolExecutor(1) as lever:
        lever.submit(cli.control, "PUT", "/_sandbox/pricing", body).result()


def _me_reads_before_the_post(cli: Cli, since: int) -> int:
    log = cli.control("GET", "/_sandbox/requests")[since:]
    reads = 0
    for record in log:
        if record["method"] == "POST" and record["path"].endswith("/exports"):
            return reads
        reads += record["method"] == "GET" and record["path"].endswith("/me")
    raise AssertionError("no unlock was sent")


def test_a_price_raised_after_the_yes_is_asked_again_with_the_new_quote(cli: Cli) -> None:
    search_id = cli.new_search()
    before = cli.credits()

    def raise_then(answer: str) -> Any:
        def answers(prompt: str) -> str:
            if len(cli.prompts) == 1:  # after the first yes, before the POST
                _price(cli, 50)
            return answer

        return answers

    declined = cli.run(
        "unlock", search_id, "--results", "3", terminal=True, answers=raise_then("y")
    )
    # Asked twice: 3 credits, then the new quote of 150; the user said yes to both.
    assert [p.strip() for p in cli.prompts] == [
        "Spend 3 credits? [y/N]",
        "Spend 150 credits? [y/N]",
    ]
    assert "The price changed after it was authorized" in declined.err
    assert declined.code == Exit.OK, declined.err
    assert len(cli.spending_requests()) == 1
    assert cli.credits() == before - 150
    # A no to the new quote sends nothing. (Debited 50 per result, the account's observed
    # price is 50: that is the quote now.)
    cli.prompts.clear()

    def yes_then_no(prompt: str) -> str:
        if len(cli.prompts) == 1:
            _price(cli, 60)
            return "y"
        return "n"

    refused = cli.run("unlock", search_id, "--results", "3", terminal=True, answers=yes_then_no)
    assert refused.code == Exit.CONFIRMATION_REQUIRED
    assert [p.strip() for p in cli.prompts] == [
        "Spend 150 credits? [y/N]",
        "Spend 180 credits? [y/N]",
    ]
    assert len(cli.spending_requests()) == 1
    assert cli.credits() == before - 150


def test_a_script_refused_quote_changed_carries_both_quotes(cli: Cli) -> None:
    search_id = cli.new_search()
    cli.control("PUT", "/_sandbox/pricing", {"stated": 1, "charged": 1})
    before = cli.credits()
    # The decision a script runs on is the read right before its POST: a later price rise is
    # another run's quote; a raise between a prompt's yes and the POST is refused unattended.
    ran = cli.run("unlock", search_id, "--results", "3", "--max-credits", "3", "--json")
    assert ran.code == Exit.OK
    assert ran.doc["debited"] == 3
    assert ran.doc["overcharge"] is None
    assert len(ran.doc["idempotency_key"]) > 8
    assert cli.credits() == before - 3


def test_one_balance_read_when_nobody_is_asked_and_one_more_after_a_yes(cli: Cli) -> None:
    search_id = cli.new_search()
    since = len(cli.control("GET", "/_sandbox/requests"))
    ran = cli.run("unlock", search_id, "--results", "2", "--max-credits", "5", "--json")
    assert ran.code == Exit.OK
    assert _me_reads_before_the_post(cli, since) == 1
    since = len(cli.control("GET", "/_sandbox/requests"))
    asked = cli.run("unlock", search_id, "--results", "2", terminal=True, answer="y")
    assert asked.code == Exit.OK, asked.err
    assert _me_reads_before_the_post(cli, since) == 2  # before asking, and before the POST


@pytest.mark.parametrize("limit", ["max-credits", "budget"])
def test_a_server_stating_a_lower_debit_is_reported_and_stops_the_limit(
    limit: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    search_id = cli.new_search()
    cli.control("PUT", "/_sandbox/pricing", {"stated": 1, "charged": 3})
    proxy = httpx.ASGITransport(app=LyingProxy(cli.sandbox_app, lambda debited: debited // 3))
    flags = ["--max-credits", "10"] if limit == "max-credits" else []
    if limit == "budget":
        monkeypatch.setenv("LEADTUI_SPEND_BUDGET", "10")
    before = cli.credits()
    ran = cli.run("unlock", search_id, "--results", "10", *flags, "--json", transport=proxy)
    assert ran.code == Exit.OK, ran.out
    sent = cli.spending_requests()[-1]
    assert ran.doc["debited"] == 30
    assert ran.doc["overcharge"] == {
        "quoted": 10,
        "debited": 30,
        "request_id": sent["request_id"],
    }
    assert "Warning: Overcharged: the server debited 30 credits" in ran.err
    assert cli.credits() == before - 30
    if limit == "max-credits":  # what it really took per result is the price now: over 10
        again = cli.run("unlock", search_id, "--results", "10", *flags, "--json", transport=proxy)
        assert again.code == Exit.CONFIRMATION_REQUIRED
        assert again.error["code"] == "over_ceiling"
        assert len(cli.spending_requests()) == 1
    if limit == "budget":  # spent 30 of a budget of 10: nothing more goes without asking
        stopped = cli.run("unlock", search_id, "--results", "1", "--json", transport=proxy)
        assert stopped.code == Exit.CONFIRMATION_REQUIRED
        assert stopped.error["code"] == "over_budget"
        assert len(cli.spending_requests()) == 1
        assert cli.credits() == before - 30


@pytest.fixture(scope="module")
def loopback() -> Iterator[str]:
    with sandbox_process() as base_url:
        yield base_url


def test_the_same_key_from_two_processes_at_once_answers_the_first_outcome(
    loopback: str, tmp_path: Path
) -> None:
    env = environment(loopback, tmp_path)
    search_id = new_search(loopback)
    key = "two-processes-one-key-0123456789"
    me = {"Authorization": "Bearer sk_demo_full"}
    before = httpx.get(f"{loopback}/api/v1/me", headers=me).json()["data"]["credits"]
    argv = [sys.executable, "-m", "leadtui", "unlock", search_id, "--results", "2"]
    argv += ["--max-credits", "10", "--idempotency-key", key, "--json"]
    both = [
        subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [process.communicate(timeout=60) for process in both]
    docs = [json.loads(out) for out, _err in outs]
    assert [process.returncode for process in both] == [0, 0], outs
    assert docs[0]["exportId"] == docs[1]["exportId"]
    assert [doc["idempotency_key"] for doc in docs] == [key, key]  # never shortened
    after = httpx.get(f"{loopback}/api/v1/me", headers=me).json()["data"]["credits"]
    assert before - after == 2


def test_a_resend_that_makes_the_debit_says_so(cli: Cli) -> None:
    search_id = cli.new_search()
    journal = SpendJournal(cli.journal_path)
    journal.record_intent(
        idempotency_key="never-sent-key-0001",
        operation=SpendOperation.UNLOCK,
        params={"search_id": search_id, "additional_results": 7},
        body={"additional_results": 7},
        amount=7,
        profile="default",
        origin=URL,
        account=SpendAccount("…full", "acct_demo", "Demo Co"),
    )
    before = cli.credits()
    ran = cli.run("pending", "resend", "never-sent-key-0001", "--json")
    assert ran.code == Exit.OK, ran.out
    assert (ran.doc["debited"], ran.doc["sent_now"]) == (7, True)
    assert ran.doc["idempotency_key"] == "never-sent-key-0001"
    assert cli.credits() == before - 7
    assert len(cli.spending_requests()) == 1


def test_mcp_help_says_what_in_all_means(cli: Cli, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.run("mcp", "--help")
    shown = " ".join(capsys.readouterr().out.split())
    assert "in all: for as long as this server runs, every spend it sends counts" in shown
