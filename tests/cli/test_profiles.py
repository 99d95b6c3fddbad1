"""A profile on the command line is what the resolver makes of it: a name the settings file
does not hold is a usage error before anything is sent, and a profile's policy is applied."""

from __future__ import annotations

import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.config.variables import config_path
from tests.cli.conftest import Cli


def settings_file(text: str) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(text)


@pytest.mark.parametrize(
    "argv",
    [
        ("account", "--json"),
        ("pending", "list", "--json"),
        ("unlock", "SEARCH", "--results", "1", "--max-credits", "1", "--json"),
    ],
    ids=["read", "journal", "spend"],
)
def test_a_mistyped_profile_is_a_usage_error_and_sends_nothing(
    cli: Cli, argv: tuple[str, ...]
) -> None:
    settings_file("[profiles.safe]\nread_only = true\n")
    search_id = cli.new_search()
    before = len(cli.control("GET", "/_sandbox/requests"))
    ran = cli.run(*(search_id if word == "SEARCH" else word for word in argv), "--profile", "saef")
    assert ran.code == Exit.USAGE
    assert ran.error["code"] == "unknown_profile"
    assert f"--profile: no profile 'saef' in {config_path()}" in ran.error["message"]
    assert "(profiles there: 'safe')" in ran.error["message"]
    assert len(cli.control("GET", "/_sandbox/requests")) == before
    assert cli.spending_requests() == []


def test_the_variable_naming_an_unknown_profile_is_refused_too(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADTUI_PROFILE", "nowhere")
    ran = cli.run("account", "--json")
    assert ran.code == Exit.USAGE
    assert ran.error["message"].startswith("LEADTUI_PROFILE: no profile 'nowhere'")


def test_the_default_profile_needs_no_entry_and_a_named_one_its_policy(cli: Cli) -> None:
    assert cli.run("account", "--json").code == Exit.OK  # no settings file at all
    settings_file("[profiles.safe]\nread_only = true\n")
    search_id = cli.new_search()
    ran = cli.run(
        "unlock", search_id, "--results", "1", "--max-credits", "5", "--profile", "safe", "--json"
    )
    assert ran.code == Exit.CONFIRMATION_REQUIRED
    assert ran.error["code"] == "read_only"
    assert cli.spending_requests() == []
