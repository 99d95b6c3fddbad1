"""Start-up of the tool server: `leadtui mcp` until its answer to `tools/list` is read, vs
`leadtui account --json` until it exits.

Both run as fresh processes, alternating, side by side in one run. The server is given what an
MCP client sends at spawn (`initialize`, `notifications/initialized`, `tools/list`) and timed
until each answer is on its stdout; the command line from spawn to exit, its GET /me round
trip on loopback included. The sandbox runs in this process, so its imports are not counted;
both get the key from LEADTUI_API_KEY. CPU time (user + sys) is printed too: on a busy machine
it varies far less than the wall time.

`initialize` and `tools/list` are answered from the manifest before the `mcp` SDK has loaded
(see src/leadtui/mcp/handshake.py); a tool call waits for the SDK. All three figures are
printed: the first call is a `wait_for_job` without arguments (refused at once, no request).

    .venv/bin/python bench/bench_mcp_startup.py [--runs 11]

Goal: tools listed ≤ 1.5x the command line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

from installed import compile_leadtui
from processes import bench_env, children_cpu, leadtui_command, run_seconds

CLIENT_OPENING = "".join(
    json.dumps(message) + "\n"
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "wait_for_job", "arguments": {}},
        },
    )
)


def _answer(line: bytes, request_id: int) -> None:
    answer = json.loads(line)
    if answer.get("id") != request_id or "result" not in answer:
        raise RuntimeError(f"unexpected answer to request {request_id}: {line[:300]!r}")


def server_seconds(command: list[str], env: dict[str, str]) -> tuple[float, float, float, float]:
    """(initialize answered, tools listed, first call answered, CPU) seconds of one server
    run, from spawn; the CPU counted is the whole run's (it ends when stdin closes)."""
    cpu = children_cpu()
    start = time.perf_counter()
    with subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        server.stdin.write(CLIENT_OPENING.encode())
        server.stdin.flush()
        _answer(server.stdout.readline(), 1)
        initialized = time.perf_counter() - start
        _answer(server.stdout.readline(), 2)
        listed = time.perf_counter() - start
        _answer(server.stdout.readline(), 3)
        called = time.perf_counter() - start
        server.stdin.close()
        server.wait(timeout=30)
    return initialized, listed, called, children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()

    from leadtui.sandbox.embedded import EmbeddedSandbox

    compile_leadtui()

    with tempfile.TemporaryDirectory() as home, EmbeddedSandbox() as sandbox:
        env = bench_env(home, sandbox.base_url)
        account = [leadtui_command(), "account", "--json"]
        server = [leadtui_command(), "mcp"]
        run_seconds(account, env)  # warm-up: cold .pyc and disk caches
        server_seconds(server, env)
        walls: dict[str, list[float]] = {"account": [], "initialize": [], "tools": [], "call": []}
        cpus: dict[str, list[float]] = {"account": [], "mcp": []}
        for _ in range(args.runs):
            wall, used = run_seconds(account, env)
            walls["account"].append(wall)
            cpus["account"].append(used)
            initialized, listed, called, used = server_seconds(server, env)
            walls["initialize"].append(initialized)
            walls["tools"].append(listed)
            walls["call"].append(called)
            cpus["mcp"].append(used)
    ms = {name: statistics.median(values) * 1000 for name, values in walls.items()}
    cpu_ms = {name: statistics.median(values) * 1000 for name, values in cpus.items()}
    base = ms["account"]
    print(f"leadtui account --json, to exit:      {base:6.0f} ms (median of {args.runs})")
    print(
        f"leadtui mcp, initialize answered:     {ms['initialize']:6.0f} ms "
        f"({ms['initialize'] / base:.2f}x)"
    )
    print(
        f"leadtui mcp, tools listed:            {ms['tools']:6.0f} ms "
        f"({ms['tools'] / base:.2f}x, goal ≤ 1.5x)"
    )
    print(f"leadtui mcp, first call answered:     {ms['call']:6.0f} ms ({ms['call'] / base:.2f}x)")
    print(f"cpu (user + sys): account {cpu_ms['account']:.0f} ms, mcp {cpu_ms['mcp']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
