"""Reading commands: each prints the server's record or page whole under --json, a table
otherwise, and every error class as one JSON error document with its exit code."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from leadtui.api.keys import mask_key
from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli
from tests.cli.faults import CursorRepeated, EmptyPageWithCursor


def test_account_json_is_the_whole_me_record(cli: Cli) -> None:
    me = cli.control("GET", "/api/v1/me", key="sk_demo_full")
    ran = cli.run("account", "--json")
    assert ran.code == Exit.OK
    assert ran.doc == me  # every field, not a trimmed view
    assert ran.err == ""  # not a terminal: nothing but the document


def test_account_table_prints_credits_with_separators_and_the_key_masked(cli: Cli) -> None:
    ran = cli.run("account")
    assert ran.code == Exit.OK
    assert "10,000" in ran.out
    assert "Demo Co" in ran.out
    assert mask_key("sk_demo_full") in ran.out
    assert "sk_demo_full" not in ran.out + ran.err


def test_usage_json_and_table(cli: Cli) -> None:
    ran = cli.run("usage", "--json")
    assert ran.code == Exit.OK
    assert ran.doc["window_days"] == 30
    assert len(ran.doc["daily"]) == 30
    table = cli.run("usage")
    assert "Credits used" in table.out
    assert "30 days" in table.out


def test_searches_list_is_a_page_and_all_follows_next_cursor(cli: Cli) -> None:
    ids = {cli.new_search(result_filter={"n": n}) for n in range(5)}
    first = cli.run("searches", "list", "--limit", "2", "--json")
    assert first.code == Exit.OK
    assert set(first.doc) == {"data", "next_cursor"}
    assert len(first.doc["data"]) == 2
    assert first.doc["next_cursor"]
    second = cli.run(
        "searches", "list", "--limit", "2", "--cursor", first.doc["next_cursor"], "--json"
    )
    assert not {s["searchId"] for s in first.doc["data"]} & {
        s["searchId"] for s in second.doc["data"]
    }
    every = cli.run("searches", "list", "--limit", "2", "--all", "--json")
    assert {s["searchId"] for s in every.doc["data"]} == ids
    assert every.doc["next_cursor"] is None
    lines = cli.run("searches", "list", "--limit", "2", "--all", "--jsonl")
    assert {json.loads(line)["searchId"] for line in lines.out.splitlines()} == ids


def test_searches_get_table_and_json(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("searches", "get", search_id, "--json")
    assert ran.code == Exit.OK
    assert ran.doc == cli.control("GET", f"/api/v1/searches/{search_id}", key="sk_demo_full")
    table = cli.run("searches", "get", search_id)
    assert search_id in table.out
    assert "Results" in table.out


def test_searches_create_from_stdin(cli: Cli) -> None:
    body = {
        "activities": [{"name": "Bakery"}],
        "countries": [{"name": "France"}],
        "localisations": [{"name": "Paris"}],
    }
    ran = cli.run("searches", "create", "--file", "-", "--json", stdin=json.dumps(body))
    assert ran.code == Exit.OK
    assert ran.doc["searchId"].startswith("srch_")
    assert ran.doc["result_count"] > 0


def test_searches_create_refuses_every_broken_limit_and_sends_nothing(
    cli: Cli, tmp_path: Path
) -> None:
    body = {
        "activities": [{"name": "x" * 161, "queryNames": ["q"] * 31}],
        "countries": [],
        "localisations": [{"name": "Paris", "localisationIdentifiers": ["i"] * 201}],
        "extra": True,
    }
    path = tmp_path / "search.json"
    path.write_text(json.dumps(body))
    before = len(cli.control("GET", "/_sandbox/requests"))
    ran = cli.run("searches", "create", "--file", str(path), "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    fields = {f["field"] for f in ran.error["fields"]}
    assert fields == {
        "activities.0.name",
        "activities.0.queryNames",
        "countries",
        "localisations.0.localisationIdentifiers",
        "extra",
    }
    assert len(cli.control("GET", "/_sandbox/requests")) == before


@pytest.mark.parametrize("content", ["{not json", ""])
def test_searches_create_with_unreadable_json(cli: Cli, tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    ran = cli.run("searches", "create", "--file", str(path), "--json")
    assert ran.code == Exit.USAGE
    assert "not valid JSON" in ran.error["message"]
    missing = cli.run("searches", "create", "--file", str(tmp_path / "none.json"), "--json")
    assert missing.code == Exit.USAGE


def test_results_as_csv_jsonl_json_and_to_a_file(cli: Cli, tmp_path: Path) -> None:
    search_id = cli.new_search()
    unlocked = cli.run("unlock", search_id, "--results", "7", "--max-credits", "7", "--json")
    assert unlocked.code == Exit.OK
    as_csv = cli.run("searches", "results", search_id, "--all", "--limit", "3", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.out)))
    assert len(rows) == 7
    assert rows[0]["leadId"]
    as_jsonl = cli.run("searches", "results", search_id, "--all", "--limit", "3", "--jsonl")
    leads = [json.loads(line) for line in as_jsonl.out.splitlines()]
    assert [lead["leadId"] for lead in leads] == [row["leadId"] for row in rows]
    as_json = cli.run("searches", "results", search_id, "--all", "--json")
    assert as_json.doc == {"data": leads, "next_cursor": None}
    target = tmp_path / "leads.csv"
    saved = cli.run("searches", "results", search_id, "--all", "--format", "csv", "-o", str(target))
    assert saved.code == Exit.OK
    assert saved.out == ""
    assert target.read_bytes().decode() == as_csv.out
    assert not target.with_name("leads.csv.part").exists()
    table = cli.run("searches", "results", search_id, "--limit", "3")
    assert "leadId" in table.out
    assert len(table.out.splitlines()) == 4


def test_limit_outside_the_spec_is_a_usage_error(cli: Cli) -> None:
    ran = cli.run("searches", "list", "--limit", "0", "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert "1 to 100" in ran.error["message"]


def test_unknown_command_under_json_is_a_json_usage_error(cli: Cli) -> None:
    ran = cli.run("nonsense", "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    plain = cli.run("searches")
    assert plain.code == Exit.USAGE
    assert plain.out == ""
    assert "required" in plain.err


@pytest.mark.parametrize(
    ("key", "code", "exit_code"),
    [
        ("sk_demo_revoked", "unauthorized", Exit.AUTH),
        ("sk_demo_inactive", "subscription_inactive", Exit.AUTH),
        ("sk_demo_suspended", "data_access_suspended", Exit.AUTH),
    ],
)
def test_key_problems_exit_5_with_the_server_code_and_request_id(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, key: str, code: str, exit_code: Exit
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", key)
    ran = cli.run("account", "--json")
    assert ran.code == exit_code
    assert set(ran.error) >= {"code", "message", "request_id", "status", "hint"}
    assert ran.error["code"] == code
    assert ran.error["request_id"].startswith("req_")
    assert ran.error["status"] in (401, 403)
    assert key not in ran.out + ran.err


def test_missing_scope_is_403_insufficient_scope(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_readonly")
    ran = cli.run(
        "searches",
        "create",
        "--file",
        "-",
        "--json",
        stdin=json.dumps(
            {
                "activities": [{"name": "a"}],
                "countries": [{"name": "b"}],
                "localisations": [{"name": "c"}],
            }
        ),
    )
    assert ran.code == Exit.AUTH
    assert ran.error["code"] == "insufficient_scope"


def test_not_found_exits_6_and_says_it_on_stderr_without_json(cli: Cli) -> None:
    ran = cli.run("exports", "get", "exp_nope", "--json")
    assert ran.code == Exit.NOT_FOUND
    assert ran.error["code"] == "not_found"
    assert ran.error["status"] == 404
    plain = cli.run("exports", "get", "exp_nope")
    assert plain.code == Exit.NOT_FOUND
    assert plain.out == ""
    assert "not_found" in plain.err
    assert "request id req_" in plain.err
    assert "Traceback" not in plain.err


def test_not_signed_in_exits_5_before_sending(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEADTUI_API_KEY")
    ran = cli.run("account", "--json")
    assert ran.code == Exit.AUTH
    assert ran.error["code"] == "not_signed_in"
    assert "leadtui login" in ran.error["hint"]


def test_an_unreachable_server_exits_9_as_network(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import httpx

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    ran = cli.run("account", "--json", transport=httpx.MockTransport(refuse))
    assert ran.code == Exit.UNAVAILABLE
    assert ran.error["code"] == "network"
    assert ran.error["hint"].startswith("The server was unreachable after retries;")
    assert len(cli.sleeps) == 3  # retried, on the injected sleep


def test_export_not_ready_is_409(cli: Cli) -> None:
    search_id = cli.new_search()
    export = cli.run("unlock", search_id, "--results", "2", "--max-credits", "2", "--json").doc
    ran = cli.run("exports", "results", export["exportId"], "--json")
    assert ran.code == Exit.CONFLICT
    assert ran.error["code"] == "export_not_ready"
    assert "exports wait" in ran.error["hint"]


def test_colour_on_a_terminal_unless_no_color(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    coloured = cli.run("searches", "get", "srch_nope", terminal=True)
    assert "\x1b[31m" in coloured.err
    monkeypatch.setenv("NO_COLOR", "1")
    plain = cli.run("searches", "get", "srch_nope", terminal=True)
    assert "\x1b[" not in plain.err
    assert "not_found" in plain.err


def test_a_key_that_cannot_be_sent_is_refused_before_any_request(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo\u201cfull")
    before = len(cli.control("GET", "/_sandbox/requests"))
    ran = cli.run("account", "--json")
    assert ran.code == Exit.USAGE
    assert "LEADTUI_API_KEY" in ran.error["message"]
    assert "sk_demo" not in ran.out
    assert len(cli.control("GET", "/_sandbox/requests")) == before


def test_a_broken_settings_file_is_a_usage_error(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("spend_budget = [")
    monkeypatch.setenv("LEADTUI_CONFIG_FILE", str(config))
    ran = cli.run("account", "--json")
    assert ran.code == Exit.USAGE
    assert str(config) in ran.error["message"]


def test_a_server_repeating_its_cursor_cannot_keep_all_walking(cli: Cli) -> None:
    for n in range(3):
        cli.new_search(result_filter={"n": n})
    looping = CursorRepeated(cli.transport)
    ran = cli.run("searches", "list", "--limit", "1", "--all", "--json", transport=looping)
    assert ran.code == Exit.UNAVAILABLE  # a partial list never looks complete
    assert ran.error["code"] == "list_incomplete"
    assert "already sent" in ran.error["message"]
    assert ran.error["items_read"] == 2
    assert len(ran.error["data"]) == 2  # the first page, then the page its cursor named again
    assert ran.error["next_cursor"] == looping.first_cursor
    assert looping.pages == 2


def test_an_empty_page_naming_a_next_one_is_not_the_end(cli: Cli) -> None:
    for n in range(3):
        cli.new_search(result_filter={"n": n})
    stalling = EmptyPageWithCursor(cli.transport)
    ran = cli.run("searches", "list", "--limit", "1", "--all", "--jsonl", transport=stalling)
    assert ran.code == Exit.UNAVAILABLE
    *items, error = [json.loads(line) for line in ran.out.splitlines()]
    assert len(items) == 1  # what was read came out as it arrived
    assert error["error"]["code"] == "list_incomplete"
    assert error["error"]["next_cursor"] == "more-later"
    table = cli.run(
        "searches", "list", "--limit", "1", "--all", transport=EmptyPageWithCursor(cli.transport)
    )
    assert table.code == Exit.UNAVAILABLE
    assert "empty page" in table.err
    assert "1 items were read" in table.err
