"""The command line keeps options given before or after a subcommand."""

from __future__ import annotations

import pytest

from leadtui.cli.main import build_parser


@pytest.mark.parametrize(
    ("argv", "profile", "base_url"),
    [
        (["--profile", "work", "login"], "work", None),
        (["login", "--profile", "work"], "work", None),
        (["--base-url", "https://api.example.com", "login"], None, "https://api.example.com"),
        (["login", "--base-url", "https://api.example.com"], None, "https://api.example.com"),
        (["--profile", "work", "auth", "status"], "work", None),
        (["logout", "--profile", "work"], "work", None),
        (["--profile", "work", "account"], "work", None),
        (["account", "--profile", "work"], "work", None),
        (
            ["--base-url", "https://api.example.com", "searches", "list"],
            None,
            "https://api.example.com",
        ),
        (
            ["exports", "wait", "exp_1", "--base-url", "https://api.example.com"],
            None,
            "https://api.example.com",
        ),
    ],
)
def test_profile_and_base_url_survive_the_subcommand(
    argv: list[str], profile: str | None, base_url: str | None
) -> None:
    ns = build_parser().parse_args(argv)
    assert ns.profile == profile
    assert ns.base_url == base_url


def test_version_names_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("leadtui ")


@pytest.mark.parametrize(
    "argv",
    [["--json", "account"], ["account", "--json"], ["--json", "pending", "list"]],
)
def test_json_is_taken_before_or_after_the_command(argv: list[str]) -> None:
    ns = build_parser().parse_args(argv)
    assert ns.json is True
    assert ns.jsonl is False


@pytest.mark.parametrize(
    "argv",
    [
        ["account", "--json"],
        ["--profile", "exports", "searches", "list", "--limit", "5"],
        ["--profile", "account", "account"],
        ["exports", "download", "exp_1", "-o", "x.zip", "--profile", "work"],
        ["extractions", "create", "--file", "-", "--yes", "--dry-run"],
        ["pending", "resend", "abc", "--json"],
        ["unlock", "s_1", "--results", "3", "--max-credits", "3"],
        ["auth", "status", "--profile", "work"],
        ["sandbox", "--port", "0", "--demo-data"],
        ["--demo"],
        [],
    ],
)
def test_the_parser_built_for_an_argv_parses_it_as_the_full_parser(argv: list[str]) -> None:
    assert build_parser(argv).parse_args(argv) == build_parser().parse_args(argv)


def test_a_bare_leadtui_opens_the_app_as_the_parser_would() -> None:
    # `leadtui` with no arguments skips the parser (`leadtui.cli.main`) and opens the app with
    # no profile or server named: exactly what the parser makes of no arguments.
    ns = build_parser().parse_args([])
    assert (ns.command, ns.spec, ns.demo, ns.demo_latency_ms, ns.demo_fault_rate) == (
        None,
        False,
        False,
        0,
        0,
    )
    assert (ns.profile, ns.base_url) == (None, None)
