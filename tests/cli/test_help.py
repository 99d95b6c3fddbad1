"""What `--help` tells a person: the environment, the exit codes, a description of every
command, and every `leadtui sandbox` option with its default."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

import pytest

from leadtui.api.deadlines import REQUEST_DEADLINE
from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import UsageError, build_parser, main


def help_of(*argv: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args([*argv, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def test_top_level_help_names_the_environment_with_a_meaning_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of(capsys=capsys)
    for name, meaning in [
        ("LEADTUI_BASE_URL", "base URL"),
        ("LEADTUI_API_KEY", "API key"),
        ("LEADTUI_PROFILE", "profile"),
    ]:
        (line,) = [line for line in text.splitlines() if line.split()[:1] == [name]]
        assert meaning in line


def test_top_level_help_lists_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(capsys=capsys)
    for code in Exit:
        assert any(line.split()[:1] == [str(code.value)] for line in text.splitlines())
    assert "nothing is sent" in text


def test_top_level_help_states_the_request_deadline(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_of(capsys=capsys).split())
    assert f"deadline: {REQUEST_DEADLINE:g} s per request" in text
    assert REQUEST_DEADLINE == 30  # what a server dripping a byte a second costs a command


def test_every_sandbox_option_has_a_help_line_with_its_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of("sandbox", capsys=capsys)
    for option, default in [
        ("--host", "127.0.0.1"),
        ("--port", "8000"),
        ("--db", "fresh"),
        ("--job-seconds", "5.0"),
        ("--fault-rate", "0.0"),
        ("--fault-seed", "random"),
        ("--latency-ms", "0"),
        ("--demo-data", "off"),
    ]:
        start = text.index(f"  {option}")
        following = text[start:].split("\n  --")[0]
        assert f"default: {default}" in " ".join(following.split()), option


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.append((f"{parser.prog} {name}".removeprefix("leadtui "), child))
                found.extend(_subcommands(child))
    return found


def test_every_subcommand_has_a_description() -> None:
    commands = _subcommands(build_parser())
    assert len(commands) > 30
    missing = [name for name, child in commands if not child.description]
    assert missing == []


def test_spend_options_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_of("unlock", capsys=capsys).split())
    assert "--max-credits C authorize up to C credits" in text
    assert "--dry-run print the quote; send nothing that spends" in text


def test_the_readme_lists_the_same_exit_codes() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## Scripts and agents", 1)[1].split("\n## ", 1)[0]
    cells = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("|")]
    listed = {int(cell) for cell in cells if cell.isdigit()}
    assert listed == {code.value for code in Exit}


# --- The parser main() builds holds only the commands its argv names ----------------------


def _help_text(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args([*argv, "--help"])
    return out.getvalue()


def test_every_command_has_the_same_help_when_only_its_own_parser_is_built() -> None:
    paths = [[], *(name.split() for name, _ in _subcommands(build_parser()))]
    assert len(paths) > 30
    for path in paths:
        argv = [*path, "--help"]
        assert _help_text(build_parser(argv), path) == _help_text(build_parser(), path), path


def test_an_unknown_command_lists_every_command_as_the_full_parser_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["acount", "--json"]
    assert main(argv) == Exit.USAGE
    lazy = capsys.readouterr()
    with pytest.raises(UsageError) as full:
        build_parser().parse_args(argv)
    assert json.loads(lazy.out)["error"]["message"] == str(full.value)
    for name in (
        "account",
        "usage",
        "searches",
        "unlock",
        "exports",
        "extractions",
        "pending",
        "digest",
    ):
        assert repr(name) in str(full.value)
