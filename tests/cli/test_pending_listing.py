"""`pending list` as scripts and terminals read it: --jsonl and --all honoured, no control
character from the journal reaches the terminal, and an entry that cannot be read is reported
as such (a resend of it says so, with its own code)."""

from __future__ import annotations

import json
import sqlite3

from leadtui.cli.exit_codes import Exit
from tests.cli.conftest import Cli
from tests.cli.test_spending import unlock_with_the_answer_lost


def spoil_params(cli: Cli, key: str, params: dict[str, object]) -> None:
    with sqlite3.connect(cli.journal_path) as db:
        db.execute(
            "UPDATE spend_intents SET params = ? WHERE idempotency_key = ?",
            (json.dumps(params), key),
        )
    db.close()


def test_pending_list_takes_jsonl_and_all(cli: Cli) -> None:
    keys = [unlock_with_the_answer_lost(cli, n)[0].error["idempotency_key"] for n in (1, 2)]
    lines = cli.run("pending", "list", "--jsonl", "--all")
    assert lines.code == Exit.OK
    assert [json.loads(line)["idempotency_key"] for line in lines.out.splitlines()] == keys
    whole = cli.run("pending", "list", "--all", "--json")
    assert [i["idempotency_key"] for i in whole.doc["data"]] == keys
    assert whole.doc["next_cursor"] is None


def test_control_characters_from_the_journal_never_reach_the_terminal(cli: Cli) -> None:
    key = unlock_with_the_answer_lost(cli, 1)[0].error["idempotency_key"]
    spoil_params(cli, key, {"search_id": "srch_1\x1b]0;pwned\x07\x1b[2J", "additional_results": 1})
    table = cli.run("pending", "list", terminal=True)
    assert table.code == Exit.OK
    for raw in ("\x1b]0", "\x07", "\x1b[2J"):  # (the header's bold is ours)
        assert raw not in table.out
    assert "srch_1\\x1b]0;pwned\\x07\\x1b[2J" in table.out
    exact = cli.run("pending", "list", "--json")  # a script gets the value as it is
    assert exact.doc["data"][0]["params"]["search_id"] == "srch_1\x1b]0;pwned\x07\x1b[2J"


def test_an_entry_with_an_unreadable_count_is_reported_and_never_resent(cli: Cli) -> None:
    key = unlock_with_the_answer_lost(cli, 3)[0].error["idempotency_key"]
    spoil_params(cli, key, {"search_id": "srch_000001", "additional_results": "three"})
    before = len(cli.spending_requests())
    listed = cli.run("pending", "list", "--json")
    assert listed.doc["data"] == []
    assert listed.doc["unreadable"] == [
        {
            "idempotency_key": key,
            "unreadable": "the count to unlock 'three' is not a whole number above 0",
        }
    ]
    table = cli.run("pending", "list")
    assert key in table.out
    assert "unreadable" in table.out
    resent = cli.run("pending", "resend", key, "--json")
    assert resent.code == Exit.CONFLICT
    assert resent.error["code"] == "intent_unreadable"
    assert "Nothing was sent" in resent.error["message"]
    assert len(cli.spending_requests()) == before
