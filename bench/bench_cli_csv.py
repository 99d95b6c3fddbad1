"""`leadtui searches results ID --all --format csv` for 50,000 leads vs 1,000: peak memory.

The command streams page by page, so its peak memory should not grow with the number of
leads. Both runs go to the same sandbox (a uvicorn thread in this process, on loopback), one
search each with its leads unlocked; each command runs as its own process, writing the CSV to
a file, and reports its peak RSS (VmHWM) when done.

    .venv/bin/python bench/bench_cli_csv.py [--small 1000] [--large 50000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

BROAD_SEARCH = {
    "activities": [{"name": n} for n in ("Bakery", "Florist", "Cafe", "Bookshop", "Plumber")],
    "countries": [{"name": n} for n in ("France", "Belgium", "Spain", "Italy")],
    "localisations": [{"name": n} for n in ("Paris", "Lyon", "Lille", "Rome", "Madrid")],
}

# Runs the real command in a child, then prints its peak resident memory to stderr.
RUN_AND_REPORT = """
import sys
from leadtui.cli.main import main
code = main(sys.argv[1:])
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
sys.stderr.write(f"PEAK_KB {peak}\\n")
sys.exit(code)
"""


def unlocked_search(base_url: str, results: int) -> str:
    auth = {"Authorization": "Bearer sk_demo_full"}
    with httpx.Client(base_url=base_url + "/api/v1", headers=auth, timeout=60) as http:
        search = http.post("/searches", json=BROAD_SEARCH).raise_for_status().json()["data"]
        http.post(
            f"/searches/{search['searchId']}/exports",
            json={"additional_results": results},
            headers={"Idempotency-Key": f"bench-{results}-{time.time_ns()}"},
        ).raise_for_status()
    return str(search["searchId"])


def run(search_id: str, env: dict[str, str], target: Path) -> tuple[float, int, int]:
    """Seconds, peak RSS in KiB, and rows written."""
    argv = ["searches", "results", search_id, "--all", "--limit", "100", "--format", "csv"]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_REPORT, *argv, "-o", str(target)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)
    peak = int(done.stderr.rsplit("PEAK_KB ", 1)[1].split()[0])
    with target.open("rb") as handle:
        rows = sum(1 for _ in handle) - 1
    return elapsed, peak, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=50_000)
    args = parser.parse_args()

    from leadtui.sandbox.config import SandboxConfig
    from leadtui.sandbox.embedded import EmbeddedSandbox

    with (
        tempfile.TemporaryDirectory() as home,
        EmbeddedSandbox(SandboxConfig(job_seconds=0.1)) as sandbox,
    ):
        httpx.patch(
            f"{sandbox.base_url}/_sandbox/accounts/acct_demo",
            json={"credits": args.small + args.large},
        ).raise_for_status()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LEADTUI_")} | {
            "XDG_CONFIG_HOME": f"{home}/config",
            "XDG_STATE_HOME": f"{home}/state",
            "LEADTUI_BASE_URL": sandbox.base_url,
            "LEADTUI_API_KEY": "sk_demo_full",
        }
        figures = {}
        for size in (args.small, args.large):
            search_id = unlocked_search(sandbox.base_url, size)
            figures[size] = run(search_id, env, Path(home) / f"leads-{size}.csv")
    for size, (elapsed, peak, rows) in figures.items():
        mib = peak / 1024
        print(f"{size:>7,} leads: {rows:>7,} rows in {elapsed:5.1f} s, peak RSS {mib:5.1f} MiB")
    small_peak, large_peak = figures[args.small][1], figures[args.large][1]
    print(f"peak memory, {args.large:,} vs {args.small:,} leads: {large_peak / small_peak:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
