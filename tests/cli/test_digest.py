"""`leadtui digest`: what changed since a time, as one JSON document or as lines of text.

The journal writes wall-clock times, so the sandbox's clock starts an hour before now here,
and a test moves it two hours on after a spend of leadtui's; the digest's own "now" is the
sandbox's clock (the `Cli` helper injects it)."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import jsonschema
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.digest.window import iso
from leadtui.spend.account import SpendAccount
from leadtui.spend.approvals import Answer, ApprovalDesk, Party, Ruling
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from tests.cli.conftest import URL, Cli
from tests.conftest import FakeClock

DEMO_ACCOUNT = SpendAccount("…full", "acct_demo", "Demo Co")


@pytest.fixture
def sandbox_clock() -> FakeClock:
    return FakeClock(float(int(time.time()) - 3600))


def unlock_directly(cli: Cli, search_id: str, results: int, key: str) -> str:
    """An unlock sent straight to the sandbox (nothing of leadtui's): its export id."""

    async def send() -> str:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=cli.sandbox_app), base_url=URL
        ) as http:
            response = await http.post(
                f"/api/v1/searches/{search_id}/exports",
                json={"additional_results": results},
                headers={"Authorization": "Bearer sk_demo_full", "Idempotency-Key": key},
            )
            response.raise_for_status()
            return str(response.json()["data"]["exportId"])

    return asyncio.run(send())


def journal_spend(journal: SpendJournal, key: str, credits: int, surface: str) -> None:
    """A settled unlock in the journal, written at the journal's clock."""
    journal.record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": "srch_x", "additional_results": credits},
        body={"additional_results": credits},
        amount=credits,
        profile="default",
        origin=URL,
        account=DEMO_ACCOUNT,
        surface=surface,
    )
    journal.record_outcome(key, SpendOutcome.SUCCEEDED)


def settled(doc: dict[str, Any]) -> list[tuple[str, str, str]]:
    return sorted((j["kind"], j["id"], j["status"]) for j in doc["jobs"]["settled"])


def test_the_digest_is_one_document_of_the_shape_the_spec_names(cli: Cli) -> None:
    cli.sandbox_clock.advance(60)  # the demo's jobs have all settled
    search_id = cli.new_search()
    assert cli.run("unlock", search_id, "--results", "7", "--max-credits", "7").code == Exit.OK
    cli.sandbox_clock.advance(2 * 3600)
    ran = cli.run("digest", "--since", "24h", "--json")
    assert ran.code == Exit.OK
    spec = json.loads(cli.run("--spec").out)
    assert next(c for c in spec["commands"] if c["command"] == "digest")["output"] == "digest"
    jsonschema.validate(ran.doc, spec["shapes"]["digest"])
    assert ran.doc["spent"] == {
        "credits": 7,
        "launches": 0,
        "by_surface": {
            "app": {"credits": 0, "launches": 0},
            "cli": {"credits": 7, "launches": 0},
            "agent": {"credits": 0, "launches": 0},
        },
    }
    assert ran.doc["balance"] == {"then": 10_000, "now": 10_000 - 7}
    assert ran.doc["until"] == iso(cli.sandbox_clock.now)
    assert ran.doc["since"] == iso(cli.sandbox_clock.now - 24 * 3600)
    assert ran.doc["jobs"]["moving"] == []
    assert all(ran.doc["since"] <= j["at"] <= ran.doc["until"] for j in ran.doc["jobs"]["settled"])
    assert ran.doc["approvals"] == {"asked": 0, "approved": 0, "denied": 0, "expired": 0}
    assert ran.doc["pending"] == []


def test_an_export_ready_and_one_failed_appear_once_since_the_last_digest(cli: Cli) -> None:
    cli.sandbox_clock.advance(60)
    assert cli.run("digest", "--json").code == Exit.OK  # the first look: the mark
    search_id = cli.new_search()
    ready = unlock_directly(cli, search_id, 3, "digest-ready-1")
    failed = unlock_directly(cli, search_id, 4, "digest-failed-1")
    cli.control("POST", f"/_sandbox/exports/{failed}/fail")
    cli.sandbox_clock.advance(60)
    since_mark = cli.run("digest", "--json")
    assert settled(since_mark.doc) == sorted(
        [("export", failed, "failed"), ("export", ready, "ready")]
    )
    assert since_mark.doc["balance"] == {"then": 10_000, "now": 10_000 - 7}
    cli.sandbox_clock.advance(60)
    assert settled(cli.run("digest", "--json").doc) == []  # told once


def test_since_bounds_the_window_both_ways(cli: Cli) -> None:
    cli.sandbox_clock.advance(60)
    journal = SpendJournal(cli.journal_path, clock=cli.sandbox_clock)
    search_id = cli.new_search()
    start = cli.sandbox_clock.now
    early = unlock_directly(cli, search_id, 2, "digest-early-1")
    journal_spend(journal, "digest-early-1", 2, "agent")
    cli.sandbox_clock.advance(2 * 3600)
    late = unlock_directly(cli, search_id, 3, "digest-late-1")
    journal_spend(journal, "digest-late-1", 3, "cli")
    cli.sandbox_clock.advance(60)

    recent = cli.run("digest", "--since", "90m", "--json").doc
    assert settled(recent) == [("export", late, "ready")]
    assert recent["spent"]["by_surface"]["cli"]["credits"] == 3
    assert recent["spent"]["by_surface"]["agent"]["credits"] == 0

    wide = cli.run("digest", "--since", iso(start - 1), "--json").doc
    assert settled(wide) == sorted([("export", early, "ready"), ("export", late, "ready")])
    assert (wide["spent"]["credits"], wide["spent"]["by_surface"]["agent"]["credits"]) == (5, 2)

    later = cli.run("digest", "--since", "30s", "--json").doc
    assert settled(later) == []
    assert later["spent"]["credits"] == 0


@pytest.mark.parametrize("since", ["yesterday", "24", "-3h", "2999-01-01T00:00Z"])
def test_a_bad_since_exits_2_with_the_reason_before_any_request(cli: Cli, since: str) -> None:
    ran = cli.run("digest", "--since", since, "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert "--since" in ran.error["message"]
    assert cli.control("GET", "/_sandbox/requests") == []


def test_at_a_terminal_it_reads_as_a_statement(cli: Cli) -> None:
    cli.sandbox_clock.advance(60)
    search_id = cli.new_search()
    assert cli.run("unlock", search_id, "--results", "5", "--max-credits", "5").code == Exit.OK
    cli.sandbox_clock.advance(2 * 3600)
    ran = cli.run("digest", "--since", "3h")
    assert ran.code == Exit.OK
    lines = ran.out.splitlines()
    assert lines[0].startswith("Since ")
    assert "Spent 5 credits: the command line 5 credits." in lines
    assert "Balance: 10,000 → 9,995 credits." in lines
    assert any(line.startswith("  Export exp_") and " ready · " in line for line in lines)
    assert "Approvals: none asked." in lines
    assert "No spend pending." in lines


def test_approvals_asked_and_answered_in_the_window_are_counted(cli: Cli) -> None:
    desk = ApprovalDesk(SpendJournal(cli.journal_path))
    now = cli.sandbox_clock.now

    def ask(n: int, minutes_ago: float, verdict: Ruling | None) -> None:
        at = datetime.fromtimestamp(now - minutes_ago * 60, UTC)
        quote = Quote.unlock_at("srch_x", n, 1, 10_000)
        asked = desk.ask(
            SpendRequest.for_unlock(quote, "srch_x", f"digest-ask-{n}"),
            asker=Party.here("agent", "test agent", at),
            wait_seconds=120,
            profile="default",
            origin=URL,
            account=DEMO_ACCOUNT,
        )
        if verdict is not None:
            answer = Answer(
                verdict,
                Party.here("app", "leadtui app", at),
                asked.idempotency_key,
                asked.request_hash,
                quote.total,
                DEMO_ACCOUNT,
            )
            assert desk.answer(asked.id, answer)

    ask(1, 30, Ruling.APPROVED)
    ask(2, 20, Ruling.DENIED)
    ask(3, 10, Ruling.TIMED_OUT)
    ask(4, 5, None)  # still waiting
    ask(5, 300, Ruling.APPROVED)  # before the window
    doc = cli.run("digest", "--since", "1h", "--json").doc
    assert doc["approvals"] == {"asked": 4, "approved": 1, "denied": 1, "expired": 1}


def test_the_job_lists_are_read_only_back_to_the_window_never_job_by_job(cli: Cli) -> None:
    search_id = cli.new_search()
    for n in range(101):  # more than a page (100) of exports before the window
        unlock_directly(cli, search_id, 1, f"digest-old-{n}")
    cli.sandbox_clock.advance(3600)
    new = {unlock_directly(cli, search_id, 1, f"digest-new-{n}") for n in range(2)}
    cli.sandbox_clock.advance(60)
    before = len(cli.control("GET", "/_sandbox/requests"))

    recent = cli.run("digest", "--since", "30m", "--json").doc
    assert {j["id"] for j in recent["jobs"]["settled"]} == new
    read = [r["path"] for r in cli.control("GET", "/_sandbox/requests")[before:]]
    assert sorted(read) == ["/api/v1/exports", "/api/v1/extractions", "/api/v1/me"]

    before += len(read)
    whole = cli.run("digest", "--since", "24h", "--json").doc
    assert len([j for j in whole["jobs"]["settled"] if j["kind"] == "export"]) >= 103
    read = [r["path"] for r in cli.control("GET", "/_sandbox/requests")[before:]]
    assert read.count("/api/v1/exports") == 2
    assert not [path for path in read if path.startswith("/api/v1/exports/")]


@pytest.mark.parametrize(
    ("since", "seconds_back"), [("24h", 24 * 3600), ("90m", 90 * 60), ("7d", 7 * 86400)]
)
def test_a_duration_reaches_that_far_back(cli: Cli, since: str, seconds_back: int) -> None:
    doc = cli.run("digest", "--since", since, "--json").doc
    assert doc["since"] == iso(cli.sandbox_clock.now - seconds_back)


def test_a_time_to_the_minute_in_utc_is_the_start(cli: Cli) -> None:
    start = datetime.fromtimestamp(cli.sandbox_clock.now - 3 * 3600, UTC)
    text = start.strftime("%Y-%m-%dT%H:%MZ")
    doc = cli.run("digest", "--since", text, "--json").doc
    assert doc["since"] == start.strftime("%Y-%m-%dT%H:%M:00Z")
