"""`--approve-in-app` and `approvals = "app"`: with no terminal, a spend waits for the running
app's answer (the app's side is played here through the journal rows it writes)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from leadtui.spend.approvals import Answer, ApprovalDesk, Party, Progress, Ruling
from leadtui.spend.journal import SpendJournal
from tests.cli.conftest import Cli

SPEND = ("--approve-in-app", "--json")


def desk() -> ApprovalDesk:
    return ApprovalDesk(SpendJournal())


def answer_when_asked(cli: Cli, verdict: Ruling, total: int | None = None) -> None:
    """On the asker's first wait, answer its request as the app would (`total`: an answer
    about another amount than the one asked)."""
    asker_sleep = cli.sleep

    async def sleep(seconds: float) -> None:
        for request in desk().listed().requests:
            if request.answer is None and request.progress is Progress.WAITING:
                desk().answer(
                    request.id,
                    Answer(
                        verdict,
                        Party.here("app", "leadtui app"),
                        request.idempotency_key,
                        request.request_hash,
                        request.quote.total if total is None else total,
                        request.account,
                    ),
                )
        await asker_sleep(seconds)

    cli.sleep = sleep  # type: ignore[method-assign]


def test_approved_in_the_app_the_command_sends_it_once(cli: Cli) -> None:
    search = cli.new_search()
    before = cli.credits()
    answer_when_asked(cli, Ruling.APPROVED)

    ran = cli.run("unlock", search, "--results", "5", *SPEND)

    assert ran.code == 0, ran.err
    assert ran.doc["exportId"]
    assert "Waiting for approval in the running leadtui app" in ran.err
    assert cli.credits() == before - 5
    assert len(cli.spending_requests()) == 1
    [request] = desk().listed().requests
    assert request.asker.name == "command line"
    assert request.progress is Progress.SENT
    assert request.answer is not None
    assert request.answer.by.name == "leadtui app"


def test_denied_in_the_app_nothing_is_sent(cli: Cli) -> None:
    search = cli.new_search()
    answer_when_asked(cli, Ruling.DENIED)

    ran = cli.run("unlock", search, "--results", "5", *SPEND)

    assert ran.code == 10
    assert ran.error["code"] == "denied_in_app"
    assert ran.error["quote"]["total"] == 5
    assert cli.spending_requests() == []


APP = f"leadtui app (pid {os.getpid()})"
DENIED = f"Denied in the app: {APP} said no to 5 credits. Nothing was sent."
TIMED_OUT = (
    "No answer from the app: nobody answered within 3 s (5 credits asked). Nothing was sent."
)
MISMATCH = (
    f"Approval does not match: the approval by {APP} names another spend than the 5 credits "
    "this process asked (the request was changed). Nothing was sent."
)
HINTS = {
    "denied_in_app": "Run the command again to ask the app again.",
    "approval_timeout": (
        "Is leadtui running for profile 'default'? Open it (A shows Approvals) and run the "
        "command again, or wait longer than 3 s with --approval-timeout SECONDS (at most 900)."
    ),
    "approval_mismatch": (
        "The request changed while it waited; run the command again to ask anew (an approval "
        "counts only for the spend it names)."
    ),
}


@pytest.mark.parametrize(
    ("code", "answer", "message"),
    [
        ("denied_in_app", {"verdict": Ruling.DENIED}, DENIED),
        ("approval_timeout", None, TIMED_OUT),
        ("approval_mismatch", {"verdict": Ruling.APPROVED, "total": 500}, MISMATCH),
    ],
    ids=["denied", "timed out", "another amount"],
)
@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_each_refusal_says_its_title_once_and_what_to_do_next(
    cli: Cli, code: str, answer: dict[str, Any] | None, message: str, json_output: bool
) -> None:
    if answer is not None:
        answer_when_asked(cli, **answer)
    options = ("--approve-in-app", "--approval-timeout", "3", *(["--json"] if json_output else []))

    ran = cli.run("unlock", cli.new_search(), "--results", "5", *options)

    assert ran.code == 10
    if json_output:
        assert ran.error["code"] == code
        assert ran.error["message"] == message
        assert ran.error["hint"] == HINTS[code]
        assert ran.error["quote"]["total"] == 5
    else:
        refusal = ran.err.splitlines()[-1]  # in a log: one line, the message then the hint
        assert refusal == f"leadtui: error ({code}): {message} {HINTS[code]}"
    assert cli.spending_requests() == []


def test_no_answer_within_the_timeout_nothing_is_sent(cli: Cli) -> None:
    search = cli.new_search()

    ran = cli.run("unlock", search, "--results", "5", *SPEND, "--approval-timeout", "3")

    assert ran.code == 10
    assert ran.error["code"] == "approval_timeout"
    assert ran.error["quote"]["total"] == 5
    assert sum(cli.sleeps) == pytest.approx(3.0)
    assert cli.spending_requests() == []


def test_the_profile_setting_asks_the_app_without_the_flag(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[profiles.default]\napprovals = "app"\n')
    monkeypatch.setenv("LEADTUI_CONFIG_FILE", str(config))
    search = cli.new_search()
    answer_when_asked(cli, Ruling.APPROVED)

    ran = cli.run("unlock", search, "--results", "5", "--json")

    assert ran.code == 0, ran.err
    assert len(cli.spending_requests()) == 1


def test_without_opting_in_a_spend_nobody_can_confirm_is_refused_as_before(cli: Cli) -> None:
    ran = cli.run("unlock", cli.new_search(), "--results", "5", "--json")

    assert ran.code == 10
    assert ran.error["code"] == "confirmation_required"
    assert desk().listed().requests == []


@pytest.mark.parametrize("seconds", ["0", "901", "-5"])
def test_a_wait_out_of_bounds_is_a_usage_error(cli: Cli, seconds: str) -> None:
    ran = cli.run(
        "unlock", cli.new_search(), "--results", "5", *SPEND, "--approval-timeout", seconds
    )

    assert ran.code == 2
    assert "at most 900 seconds" in ran.error["message"]
    assert cli.spending_requests() == []


def test_a_launch_waits_for_the_app_too(cli: Cli) -> None:
    draft = cli.control(
        "POST",
        "/api/v1/extractions/drafts",
        {
            "categories": ["bakery"],
            "countries": ["FR"],
            "localisations": ["Paris"],
            "enrichment_sources": ["website"],
        },
        key="sk_demo_full",
    )
    answer_when_asked(cli, Ruling.DENIED)

    ran = cli.run("extractions", "launch", draft["extractionId"], *SPEND)

    assert ran.code == 10
    assert ran.error["code"] == "denied_in_app"
    assert ran.error["quote"]["unit"] == "launch"
