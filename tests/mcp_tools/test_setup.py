"""The README's client configuration for the sandbox works as written with the official SDK's
stdio client, which hands the server only a safe list of the environment plus `env`."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.mcp_tools.conftest import Sandbox, ok

README = Path(__file__).parents[2] / "README.md"


def readme_config(name: str) -> dict[str, object]:
    """The server `name` of the README's `mcpServers` examples."""
    for block in re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        servers = json.loads(block).get("mcpServers", {})
        if name in servers:
            config: dict[str, object] = servers[name]
            return config
    raise AssertionError(f"no {name} in the README")


async def test_the_readme_sandbox_config_works_with_the_sdks_stdio_client(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = readme_config("leadtui-sandbox")
    env = dict(config["env"])  # type: ignore[call-overload]
    assert set(env) == {"LEADTUI_BASE_URL", "LEADTUI_API_KEY"}
    env["LEADTUI_BASE_URL"] = sandbox.base_url  # this test's sandbox, on another port
    # What the client's own environment holds reaches the server only from the SDK's list.
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in list(os.environ):
        if name.startswith(("XDG_", "LEADTUI_")):
            monkeypatch.delenv(name)
    command = str(Path(sys.executable).with_name(Path(str(config["command"])).name))
    server = StdioServerParameters(command=command, args=list(config["args"]), env=env)  # type: ignore[call-overload]
    search_id = sandbox.new_search()
    credits = sandbox.credits()
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        assert ok(await session.call_tool("account", {}))["credits"] == credits
        arguments = {"search_id": search_id, "results": 5}
        sent = ok(await session.call_tool("unlock_results", arguments))
    assert sent["allowance_left"]["credits"] == 45
    assert sandbox.credits() == credits - 5
    assert list((tmp_path / ".local" / "state").rglob("*journal*"))  # under the HOME given
