"""`leadtui --demo`: the sandbox it starts takes `--latency-ms`/`--fault-rate` as `leadtui
sandbox` does, and its jobs are slow enough to watch one go from queued to ready."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from leadtui.cli.main import build_parser, main
from leadtui.cli.sandbox import demo_config
from leadtui.sandbox.app import create_app
from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth


def test_demo_takes_latency_and_faults_as_the_sandbox_does() -> None:
    argv = ["--demo", "--latency-ms", "3000", "--fault-rate", "0.3"]
    config = demo_config(build_parser(argv).parse_args(argv))
    assert (config.latency_ms, config.fault_rate, config.demo_data) == (3000, 0.3, True)
    quiet = demo_config(build_parser(["--demo"]).parse_args(["--demo"]))
    assert (quiet.latency_ms, quiet.fault_rate) == (0, 0.0)
    argv = ["sandbox", "--fault-rate", "0.3", "--latency-ms", "7"]
    served = build_parser(argv).parse_args(argv)  # the sandbox's own flags are its own
    assert (served.fault_rate, served.latency_ms) == (0.3, 7)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--demo", "--fault-rate", "1.5"], "--fault-rate must be between 0 and 1"),
        (["--latency-ms", "3000"], "--latency-ms and --fault-rate go with --demo"),
    ],
)
def test_a_demo_flag_that_cannot_be_used_is_refused(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert said in capsys.readouterr().err


async def test_the_demos_waiting_export_can_be_watched_from_queued_to_ready() -> None:
    clock = FakeClock()
    argv = ["--demo"]
    app = create_app(replace(demo_config(build_parser(argv).parse_args(argv)), clock=clock))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:

        async def newest_export() -> str:
            page = (await http.get(f"{API}/exports", headers=auth())).json()["data"]
            return str(max(page, key=lambda e: e["exportId"])["status"])

        assert await newest_export() == "queued"
        clock.advance(45)  # a new user has found the Jobs screen by now
        assert await newest_export() == "queued"
        seen = set()
        for _ in range(24):
            clock.advance(5)
            seen.add(await newest_export())
        assert {"processing", "ready"} <= seen
