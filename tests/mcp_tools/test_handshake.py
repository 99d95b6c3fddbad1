"""`initialize` is answered before the SDK has loaded, with exactly what the SDK answers; the
SDK then serves from that same request on, and its own answer is not sent twice."""

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

from leadtui.mcp.handshake import HANDSHAKE_VERSIONS
from tests.e2e.sandbox_process import clean_env

pytestmark = pytest.mark.slow  # the tool server as a process


def _env(home: Path) -> dict[str, str]:
    """No request reaches the service in these tests: its address answers nothing."""
    return clean_env() | {
        "LEADTUI_BASE_URL": "http://127.0.0.1:9",
        "LEADTUI_API_KEY": "sk_demo_full",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }


def _serve(home: Path, *messages: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """The answers to `messages` (one per request), and what the server logged. Standard input
    stays open until they are read: a client that closes it ends the session."""
    requests = sum(1 for message in messages if "id" in message)
    with subprocess.Popen(
        [sys.executable, "-m", "leadtui", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(home),
    ) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        assert server.stderr is not None
        server.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        server.stdin.flush()
        answers = [json.loads(server.stdout.readline()) for _ in range(requests)]
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        logged = server.stderr.read().decode()
    return answers, logged


def _initialize(version: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}


def test_the_early_answer_speaks_the_sdks_handshake_versions() -> None:
    assert HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


def test_initialize_is_answered_once_as_the_sdk_answers_it(tmp_path: Path) -> None:
    # The newest handshake version is every stdio session's in the other tests: the oldest here.
    version = HANDSHAKE_VERSIONS[0]
    answers, logged = _serve(tmp_path, _initialize(version), INITIALIZED, LIST_TOOLS)
    assert [answer["id"] for answer in answers] == [7, 8]
    result = answers[0]["result"]
    assert result["protocolVersion"] == version
    assert result["serverInfo"]["name"] == "leadtui"
    assert "authorization_required" in result["instructions"]
    assert {"account", "wait_for_job"} <= {tool["name"] for tool in answers[1]["result"]["tools"]}
    # The SDK's own answer was compared with the one sent, and matched.
    assert "differs" not in logged


def test_a_version_it_does_not_know_is_left_to_the_sdk(tmp_path: Path) -> None:
    answers, _ = _serve(tmp_path, _initialize("2023-01-01"), INITIALIZED, LIST_TOOLS)
    assert [answer["id"] for answer in answers] == [7, 8]
    assert answers[0]["result"]["protocolVersion"] == HANDSHAKE_PROTOCOL_VERSIONS[-1]


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
