"""`exports wait` and `extractions wait` poll on the server's Retry-After (never faster), on an
injected clock: the sandbox's time moves only when the command sleeps."""

from __future__ import annotations

import json

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli, Ran
from tests.cli.test_spending import EXTRACTION


def unlock(cli: Cli, results: int = 3) -> str:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", str(results), "--max-credits", "99", "--json")
    assert ran.code == Exit.OK
    return str(ran.doc["exportId"])


def test_export_wait_returns_the_ready_record_and_polls_on_retry_after(cli: Cli) -> None:
    export_id = unlock(cli)
    cli.sandbox_clock.advance(-0.05)  # so the first read still sees it queued
    ran = cli.run("exports", "wait", export_id, "--json")
    assert ran.code == Exit.OK
    assert ran.doc["status"] == "ready"
    assert ran.doc["exportId"] == export_id
    assert cli.sleeps  # it did wait, and only as long as the server asked
    assert all(seconds >= 1 for seconds in cli.sleeps)
    gets = [
        r
        for r in cli.control("GET", "/_sandbox/requests")
        if r["method"] == "GET" and r["path"].endswith(f"/exports/{export_id}")
    ]
    assert len(gets) == len(cli.sleeps) + 1


def test_export_wait_exits_3_when_the_export_failed(cli: Cli) -> None:
    export_id = unlock(cli)
    cli.control("POST", f"/_sandbox/exports/{export_id}/fail")
    ran = cli.run("exports", "wait", export_id, "--json")
    assert ran.code == Exit.JOB_FAILED
    assert ran.doc["status"] == "failed"
    retried = cli.run("exports", "retry", export_id, "--json")
    assert retried.code == Exit.OK
    assert retried.doc["status"] in ("queued", "processing")
    assert cli.run("exports", "wait", export_id, "--json").code == Exit.OK


def test_export_wait_times_out_with_exit_4_on_the_injected_clock(cli: Cli) -> None:
    cli.control("POST", "/_sandbox/clock", {"freeze": True})
    export_id = unlock(cli)
    ran = cli.run("exports", "wait", export_id, "--timeout", "7", "--json")
    assert ran.code == Exit.WAIT_TIMED_OUT
    assert ran.error["code"] == "timeout"
    assert ran.error["status"] is None  # no HTTP status: our own code
    assert ran.error["job_status"] == "queued"
    assert sum(cli.sleeps) == 7  # it waited out the timeout, no more, in no real time


def test_export_wait_shows_state_and_progress_on_a_terminal(cli: Cli) -> None:
    export_id = unlock(cli)
    cli.sandbox_clock.advance(-0.05)
    ran = cli.run("exports", "wait", export_id, terminal=True)
    assert ran.code == Exit.OK
    assert f"{export_id}: queued 0%" in ran.err
    assert f"{export_id}: ready 100%" in ran.err
    assert "ready" in ran.out


def test_wait_prints_nothing_on_stderr_off_a_terminal(cli: Cli) -> None:
    ran = cli.run("exports", "wait", unlock(cli), "--json")
    assert ran.err == ""


def test_extraction_wait_completes_and_a_stopped_one_exits_3(cli: Cli) -> None:
    created = cli.run(
        "extractions", "create", "--file", "-", "--yes", "--json", stdin=json.dumps(EXTRACTION)
    )
    extraction_id = created.doc["extractionId"]
    done = cli.run("extractions", "wait", extraction_id, "--json")
    assert done.code == Exit.OK
    assert done.doc["status"] == "completed"
    results = cli.run("extractions", "results", extraction_id, "--all", "--jsonl")
    assert results.code == Exit.OK
    assert len(results.out.splitlines()) == done.doc["result_count"]

    other = cli.run(
        "extractions", "create", "--file", "-", "--yes", "--json", stdin=json.dumps(EXTRACTION)
    ).doc["extractionId"]
    cli.sandbox_clock.advance(0.2)
    paused = cli.run("extractions", "pause", other, "--json")
    assert paused.code == Exit.OK
    assert paused.doc["status"] == "paused"
    assert cli.run("extractions", "resume", other, "--json").doc["status"] == "running"
    stopped = cli.run("extractions", "stop", other, "--json")
    assert stopped.doc["status"] == "stopped"
    ran = cli.run("extractions", "wait", other, "--json")
    assert ran.code == Exit.JOB_FAILED
    assert ran.doc["status"] == "stopped"


def update_draft(cli: Cli, draft_id: str, changes: dict[str, object]) -> Ran:
    return cli.run(
        "extractions", "update", draft_id, "--file", "-", "--json", stdin=json.dumps(changes)
    )


def test_extraction_drafts_are_updated_and_listed(cli: Cli) -> None:
    draft = cli.run("extractions", "draft", "--file", "-", "--json", stdin=json.dumps(EXTRACTION))
    draft_id = draft.doc["extractionId"]
    changed = update_draft(cli, draft_id, {"countries": ["BE"]})
    assert changed.code == Exit.OK
    assert changed.doc["countries"] == ["BE"]
    listed = cli.run("extractions", "list", "--json")
    assert draft_id in {e["extractionId"] for e in listed.doc["data"]}
    got = cli.run("extractions", "get", draft_id)
    assert "draft" in got.out
    bad = update_draft(cli, draft_id, {"urls": ["not a url"], "bogus": 1})
    assert bad.code == Exit.USAGE
    assert {f["field"] for f in bad.error["fields"]} == {"urls.0", "bogus"}


def test_waiting_on_a_draft_or_a_paused_extraction_ends_at_once(cli: Cli) -> None:
    draft = cli.run("extractions", "draft", "--file", "-", "--json", stdin=json.dumps(EXTRACTION))
    draft_id = draft.doc["extractionId"]
    ran = cli.run("extractions", "wait", draft_id, "--json")
    assert ran.code == Exit.CONFLICT
    assert ran.error["code"] == "will_not_settle"
    assert ran.error["job_status"] == "draft"
    assert "extractions launch" in ran.error["hint"]
    assert cli.sleeps == []  # it did not poll

    running = cli.run(
        "extractions", "create", "--file", "-", "--yes", "--json", stdin=json.dumps(EXTRACTION)
    ).doc["extractionId"]
    assert cli.run("extractions", "pause", running, "--json").code == Exit.OK
    paused = cli.run("extractions", "wait", running, "--timeout", "3600")
    assert paused.code == Exit.CONFLICT
    assert "it will not move on by itself" in paused.err
    assert "extractions resume" in paused.err
    assert cli.sleeps == []
