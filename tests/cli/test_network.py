"""The command line's own way to the server (httpx's sync client, each call in a thread): over
real loopback sockets it reads, unlocks and downloads like the async transport, a server that
drips is still cut off at the client's deadline, and an answer nobody waits for is closed."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConnectionFailed, RequestTimeout
from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import main
from leadtui.cli.network import ThreadedTransport, _in_thread
from leadtui.cli.runtime import CliDeps
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox
from tests.proof.test_hostile_server import KEY, DripServer


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A sandbox on a loopback port, and the environment that points the commands at it."""
    with EmbeddedSandbox(SandboxConfig(job_seconds=0.2)) as sandbox:
        monkeypatch.setenv("LEADTUI_BASE_URL", sandbox.base_url)
        monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
        yield sandbox.base_url


async def no_sleep(seconds: float) -> None:
    await asyncio.sleep(0)


def run(*argv: str) -> tuple[int, str]:
    """`leadtui ARGV` in this process, with no transport injected: the real network path."""
    out = io.StringIO()
    code = main(list(argv), CliDeps(stdout=out, stderr=io.StringIO(), sleep=no_sleep))
    return code, out.getvalue()


def test_account_json_over_a_socket_in_process(served: str) -> None:
    code, out = run("account", "--json")
    assert code == Exit.OK
    assert json.loads(out)["credits"] == 10000


def test_unlock_wait_and_download_over_a_socket(served: str, tmp_path: Path) -> None:
    request = tmp_path / "search.json"
    request.write_text(
        json.dumps(
            {
                "activities": [{"name": "Bakery"}],
                "countries": [{"name": "France"}],
                "localisations": [{"name": "Paris"}],
            }
        )
    )
    code, out = run("searches", "create", "--file", str(request), "--json")
    assert code == Exit.OK, out
    search_id = json.loads(out)["searchId"]

    code, out = run("unlock", search_id, "--results", "3", "--max-credits", "3", "--json")
    assert code == Exit.OK, out
    export_id = json.loads(out)["exportId"]
    assert run("exports", "wait", export_id, "--json")[0] == Exit.OK

    target = tmp_path / "leads.zip"
    code, out = run("exports", "download", export_id, "-o", str(target), "--json")
    assert code == Exit.OK, out
    assert json.loads(out)["bytes"] == target.stat().st_size
    with zipfile.ZipFile(target) as archive:
        assert "leads.csv" in archive.namelist()
    code, out = run("account", "--json")
    assert json.loads(out)["credits"] == 10000 - 3


def test_no_server_listening_is_a_network_failure_exit_9(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:  # a port nothing listens on once this closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("LEADTUI_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    code, out = run("account", "--json")
    assert code == Exit.UNAVAILABLE
    assert json.loads(out)["error"]["code"] == "network"


async def test_no_server_listening_raises_connection_failed() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with LeadClient(
        f"http://127.0.0.1:{port}", KEY, max_retries=0, transport=ThreadedTransport()
    ) as client:
        with pytest.raises(ConnectionFailed):
            await client.me()


async def test_a_server_that_drips_is_cut_off_at_the_deadline(tmp_path: Path) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    # Per-read timeout 0.4 s: longer than the drip's 0.2 s gaps, so only the deadline can help.
    async with (
        DripServer(b"application/json", interval=0.2) as json_url,
        DripServer(b"application/zip", interval=0.2) as zip_url,
        LeadClient(
            json_url, KEY, timeout=0.4, max_retries=0, transport=ThreadedTransport()
        ) as json_client,
        LeadClient(
            zip_url, KEY, timeout=0.4, max_retries=0, transport=ThreadedTransport()
        ) as zip_client,
    ):
        results = await asyncio.gather(
            json_client.me(),
            zip_client.exports.download("exp_1", folder / "leads.zip"),
            return_exceptions=True,
        )
    assert all(isinstance(r, RequestTimeout) for r in results), results
    assert list(folder.iterdir()) == []  # no half-written archive, no `.part`


async def test_a_result_nobody_waits_for_any_more_is_handed_to_abandon() -> None:
    release, abandoned = threading.Event(), threading.Event()
    given: list[str] = []

    def slow() -> str:
        release.wait()
        return "an open response"

    def abandon(result: str) -> None:
        given.append(result)
        abandoned.set()

    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await _in_thread(slow, abandon=abandon)
    release.set()
    assert await asyncio.to_thread(abandoned.wait, 10)
    assert given == ["an open response"]


async def test_an_error_in_the_thread_is_raised_in_the_awaiting_task() -> None:
    def fails() -> None:
        raise OSError("refused")

    with pytest.raises(OSError, match="refused"):
        await _in_thread(fails)
