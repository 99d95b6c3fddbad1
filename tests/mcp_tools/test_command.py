"""`leadtui mcp` on the command line: its options, and a clear word without the extra."""

from __future__ import annotations

import importlib.util
import io
from typing import Any

import pytest
from mcp import Client

from leadtui.cli.main import build_parser, main
from leadtui.cli.runtime import CliDeps
from leadtui.mcp.command import options_from
from leadtui.mcp.runtime import McpDeps, Options, Runtime
from leadtui.mcp.server import build_server
from tests.mcp_tools.conftest import error_of


def test_the_budget_defaults_to_nothing_and_takes_the_profile() -> None:
    ns = build_parser(["mcp"]).parse_args(["mcp", "--profile", "work"])
    assert (ns.command, ns.profile, ns.max_credits, ns.max_launches) == ("mcp", "work", 0, 0)
    ns = build_parser(["mcp"]).parse_args(["mcp", "--max-credits", "50", "--max-launches", "2"])
    assert (ns.max_credits, ns.max_launches) == (50, 2)


@pytest.mark.parametrize("value", ["-1", "ten", "1.5"])
def test_a_budget_that_is_not_a_whole_number_of_0_or_more_is_a_usage_error(value: str) -> None:
    err = io.StringIO()
    code = main(["mcp", "--max-credits", value], CliDeps(stderr=err))
    assert code == 2
    assert "--max-credits" in err.getvalue()


def test_approving_in_the_app_is_opted_into_with_a_wait_of_the_command_lines_bounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ns = build_parser(["mcp"]).parse_args(["mcp"])
    assert (ns.approve_in_app, ns.approval_timeout) == (False, None)
    options = options_from(
        build_parser(["mcp"]).parse_args(["mcp", "--approve-in-app", "--approval-timeout", "300"])
    )
    assert (options.approve_in_app, options.approval_timeout) == (True, 300.0)

    for seconds in ("0", "901", "nan"):
        assert main(["mcp", "--approve-in-app", "--approval-timeout", seconds]) == 2
        err = capsys.readouterr().err
        assert f"--approval-timeout {seconds}: must be more than 0 and at most 900 seconds" in err

    with pytest.raises(SystemExit):
        main(["mcp", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--approve-in-app" in shown
    assert "--approval-timeout S" in shown
    assert "example: leadtui mcp --profile work --max-credits 500 --approve-in-app" in shown


def test_without_the_extra_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    find_spec = importlib.util.find_spec

    def without_mcp(name: str, *args: Any) -> Any:
        return None if name == "mcp" else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_mcp)
    assert main(["mcp"]) == 2
    assert "pip install 'leadtui[mcp]'" in capsys.readouterr().err


async def test_without_a_key_a_tool_says_not_signed_in_and_how_to_sign_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_BASE_URL", "http://127.0.0.1")
    runtime = Runtime(Options(), McpDeps())
    async with Client(build_server(runtime)) as client:
        error = error_of(await client.call_tool("account", {}))
        spend = error_of(await client.call_tool("unlock_results", {"search_id": "s", "results": 1}))
    assert error["code"] == spend["code"] == "not_signed_in"
    assert "leadtui login" in error["hint"]
