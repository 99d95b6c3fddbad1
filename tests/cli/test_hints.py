"""Every error code that has a next step says it in `hint`; the few that have none are listed.
A person at a terminal who was not asked is told what kept them from it."""

from __future__ import annotations

import json

import pytest

from leadtui.api import guidance
from leadtui.api.contract import ErrorCode
from leadtui.api.errors import ApiError
from leadtui.cli import failures
from leadtui.cli.exit_codes import Exit
from leadtui.spend.errors import Code
from tests.cli.conftest import Cli
from tests.support.bodies import EXTRACTION


def every_code() -> set[str]:
    """The server's codes, the spend decision's, and every one the command line spells."""
    ours = {
        value
        for module in (guidance, failures)
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, str) and value.isidentifier() and value.islower()
    }
    return {c.value for c in ErrorCode} | {c.value for c in Code} | ours


# The codes after which there is nothing to do: the thing is done or gone for good.
NO_NEXT_STEP = frozenset({Code.INTENT_SETTLED})  # the spend's outcome is known already


@pytest.mark.parametrize("code", sorted(every_code()))
def test_every_code_has_a_next_step_or_is_listed_as_having_none(code: str) -> None:
    step = failures.next_step(code)
    assert (step is not None) != (code in NO_NEXT_STEP), code


def test_the_servers_internal_error_after_retries_has_a_hint() -> None:
    failure = failures.from_lead_error(ApiError(500, "internal_error", "boom", "req_1"))
    assert failure.exit == Exit.UNAVAILABLE
    assert failure.hint is not None
    assert "request id" in failure.hint


def test_not_found_has_a_hint(cli: Cli) -> None:
    ran = cli.run("exports", "get", "exp_999999", "--json")
    assert ran.code == Exit.NOT_FOUND
    assert "leadtui exports list" in ran.error["hint"]


def test_a_bad_file_has_a_hint(cli: Cli) -> None:
    ran = cli.run("searches", "create", "--file", "-", "--json", stdin='{"activities": 1}')
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "invalid_request"
    assert ran.error["hint"]


def test_no_launches_left_has_a_hint(cli: Cli) -> None:
    cli.control("PATCH", "/_sandbox/accounts/acct_demo", {"extraction_quota": 0})
    body = json.dumps(EXTRACTION)
    ran = cli.run(
        "extractions", "create", "--file", "-", "--max-launches", "1", "--json", stdin=body
    )
    assert ran.error["code"] == "no_launches_left"
    assert "leadtui account" in ran.error["hint"]


def test_no_input_at_a_terminal_is_not_sent_to_a_terminal(cli: Cli) -> None:
    search_id = cli.new_search()
    ran = cli.run("unlock", search_id, "--results", "5", "--no-input", terminal=True)
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert "at a terminal" not in ran.err
    assert "without --no-input to be asked" in ran.err
    assert "--max-credits 5" in ran.err
    assert cli.spending_requests() == []
