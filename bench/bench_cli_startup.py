"""Start-up of the command line: `leadtui account --json` vs `python -c "import httpx"`.

Both run as fresh processes, alternating, side by side in one run; the time is the wall time
from spawn to exit, so leadtui's includes its GET /me round trip on loopback. For scale, a
third program is timed: the floor, a script that imports httpx and pydantic, asks GET /me and
prints the JSON (what any Python client must pay for the same answer). The sandbox runs in
this process, so its imports are not counted; the key comes from LEADTUI_API_KEY.

The CPU time (user + sys) of each program is printed too: on a busy machine it varies far
less than the wall time.

    .venv/bin/python bench/bench_cli_startup.py [--runs 15] [--against OTHER/.venv/bin/leadtui]

Goal: ratio ≤ 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile

from installed import compile_leadtui
from processes import add_against, bench_env, leadtui_command, run_seconds

FLOOR = """
import json, os, httpx
from pydantic import BaseModel

class Me(BaseModel):
    credits: int

r = httpx.get(os.environ["LEADTUI_BASE_URL"] + "/api/v1/me",
              headers={"Authorization": "Bearer " + os.environ["LEADTUI_API_KEY"]})
Me.model_validate(r.json()["data"])
print(json.dumps(r.json()["data"]))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    add_against(parser)
    args = parser.parse_args()

    from leadtui.sandbox.embedded import EmbeddedSandbox

    compile_leadtui()

    python = sys.executable
    with tempfile.TemporaryDirectory() as home, EmbeddedSandbox() as sandbox:
        env = bench_env(home, sandbox.base_url)
        commands = {
            "httpx": [python, "-c", "import httpx"],
            "floor": [python, "-c", FLOOR],
            "leadtui": [leadtui_command(), "account", "--json"],
        }
        if args.against:
            commands["against"] = [args.against, "account", "--json"]
        for command in commands.values():  # warm-up: cold .pyc and disk caches
            run_seconds(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                wall, used = run_seconds(command, env)
                times[name].append(wall)
                cpu[name].append(used)
    ms = {name: statistics.median(values) * 1000 for name, values in times.items()}
    cpu_ms = {name: statistics.median(values) * 1000 for name, values in cpu.items()}
    print(f'python -c "import httpx":          {ms["httpx"]:6.0f} ms (median of {args.runs})')
    floor_ratio = ms["floor"] / ms["httpx"]
    print(f"floor: + pydantic, GET /me, print: {ms['floor']:6.0f} ms ({floor_ratio:.2f}x)")
    print(f"leadtui account --json:            {ms['leadtui']:6.0f} ms")
    print(
        f"cpu (user + sys): httpx {cpu_ms['httpx']:.0f} ms, floor {cpu_ms['floor']:.0f} ms "
        f"({cpu_ms['floor'] / cpu_ms['httpx']:.2f}x), leadtui {cpu_ms['leadtui']:.0f} ms "
        f"({cpu_ms['leadtui'] / cpu_ms['httpx']:.2f}x)"
    )
    print(f"ratio: {ms['leadtui'] / ms['httpx']:.2f}x (goal ≤ 2x)")
    if args.against:
        print(
            f"--against {args.against}: {ms['against']:.0f} ms, cpu {cpu_ms['against']:.0f} ms; "
            f"this leadtui is {ms['leadtui'] / ms['against']:.2f}x its time "
            f"({cpu_ms['leadtui'] / cpu_ms['against']:.2f}x its cpu)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
