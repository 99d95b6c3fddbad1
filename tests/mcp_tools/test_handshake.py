"""`initialize` and `tools/list` are answered before the SDK has loaded, from a manifest that
is the SDK's own answers byte for byte; the SDK then serves every message from the first on,
its own answers to those two are not sent twice, and a tool call however early is answered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from leadtui.mcp import manifest
from leadtui.mcp.handshake import INITIALIZE, LIST_TOOLS, MANIFEST_PATH, Manifest
from tests.e2e.sandbox_process import clean_env
from tests.mcp_tools.conftest import Machine, Sandbox

pytestmark = pytest.mark.slow  # the tool server as a process


def _env(home: Path) -> dict[str, str]:
    """No request reaches the service in these tests: its address answers nothing."""
    return clean_env() | {
        "LEADTUI_BASE_URL": "http://127.0.0.1:9",
        "LEADTUI_API_KEY": "sk_demo_full",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }


def _serve(env: dict[str, str], *messages: dict[str, Any]) -> tuple[list[str], str]:
    """The answer lines to `messages` (one per request, in the order written), and what the
    server logged. Standard input stays open until they are read: closing it ends the
    session."""
    requests = sum(1 for message in messages if "id" in message)
    with subprocess.Popen(
        [sys.executable, "-m", "leadtui", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        assert server.stderr is not None
        server.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        server.stdin.flush()
        answers = [server.stdout.readline().decode() for _ in range(requests)]
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        rest = server.stdout.read().decode()
        logged = server.stderr.read().decode()
    assert rest == ""  # nothing answered twice
    return answers, logged


def _initialize(version: str, request_id: int | str = 7) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS_REQUEST = {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}
PING = {"jsonrpc": "2.0", "id": 9, "method": "ping"}


def test_the_manifest_is_the_sdks_own_answers_byte_for_byte() -> None:
    # Made again here, through the SDK: `python -m leadtui.mcp.manifest` writes it.
    assert manifest.render() == MANIFEST_PATH.read_text(encoding="utf-8")
    read = Manifest.read()
    assert read is not None
    assert tuple(read.results[INITIALIZE]) == HANDSHAKE_PROTOCOL_VERSIONS


def test_initialize_and_tools_are_answered_once_as_the_sdk_answers_them(tmp_path: Path) -> None:
    read = Manifest.read()
    assert read is not None
    for version in (HANDSHAKE_PROTOCOL_VERSIONS[0], HANDSHAKE_PROTOCOL_VERSIONS[-1]):
        opening = (_initialize(version, "open-1"), INITIALIZED, LIST_TOOLS_REQUEST, PING)
        answers, logged = _serve(_env(tmp_path), *opening)
        assert answers[0] == read.line(INITIALIZE, version, "open-1") + "\n"
        assert answers[1] == read.line(LIST_TOOLS, version, 8) + "\n"
        assert json.loads(answers[2]) == {"jsonrpc": "2.0", "id": 9, "result": {}}
        result = json.loads(answers[0])["result"]
        assert (result["protocolVersion"], result["serverInfo"]["name"]) == (version, "leadtui")
        assert {"account", "wait_for_job"} <= {
            t["name"] for t in json.loads(answers[1])["result"]["tools"]
        }
        # The SDK's own answers were compared with the lines sent, and matched.
        assert "differs" not in logged


def test_a_version_it_does_not_know_is_left_to_the_sdk(tmp_path: Path) -> None:
    answers, _ = _serve(_env(tmp_path), _initialize("2023-01-01"), INITIALIZED, LIST_TOOLS_REQUEST)
    assert [json.loads(answer)["id"] for answer in answers] == [7, 8]
    assert json.loads(answers[0])["result"]["protocolVersion"] == HANDSHAKE_PROTOCOL_VERSIONS[-1]


def test_a_tool_call_at_once_is_answered_once_the_sdk_is_there(
    machine: Machine, sandbox: Sandbox
) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "account", "arguments": {}},
    }
    version = HANDSHAKE_PROTOCOL_VERSIONS[-1]
    # All at once, before anything is answered: the call waits for the SDK, and works.
    answers, _ = _serve(
        machine.env(), _initialize(version, 1), INITIALIZED, call, LIST_TOOLS_REQUEST
    )
    by_id = {json.loads(answer)["id"]: json.loads(answer) for answer in answers}
    assert set(by_id) == {1, 3, 8}
    account = by_id[3]["result"]
    assert account.get("isError") is not True, account
    assert account["structuredContent"]["credits"] == sandbox.credits()


async def test_a_newer_client_that_opens_with_discovery_is_left_to_the_sdk(
    tmp_path: Path,
) -> None:
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "leadtui", "mcp"], env=_env(tmp_path)
    )
    async with Client(server) as client:
        assert client.session.protocol_version in MODERN_PROTOCOL_VERSIONS
        listed = await client.list_tools()
    assert "account" in {tool.name for tool in listed.tools}
