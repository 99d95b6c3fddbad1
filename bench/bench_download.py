"""ZIP download: `LeadClient.exports.download` against `curl`, on the same loopback sandbox
export in the same run; prints throughput and peak memory of each, and the ratios.

    .venv/bin/python bench/bench_download.py [--results 50000] [--runs 5]

Two servers for the same archive: the sandbox itself (it builds the ZIP on every request, so
both clients mostly wait for it), and a static file server holding the very same bytes (so
the clients' own speed shows). Each download runs in its own process, so the peak RSS is that
process's alone; the client's growth during the download shows whether memory stays flat.
leadtui fsyncs the archive before its atomic rename; curl does not.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox

KEY = "sk_demo_full"
AUTH = {"Authorization": f"Bearer {KEY}"}
BROAD = {
    section: [{"name": f"{section}-{i}"} for i in range(8)]
    for section in ("activities", "countries", "localisations")
}

CLIENT_CHILD = r"""
import asyncio, json, sys, time
from leadtui.api.client import LeadClient

def status_kb(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])

async def main(base_url, export_id, path):
    async with LeadClient(base_url, "sk_demo_full", timeout=120) as client:
        before = status_kb("VmRSS")
        started = time.perf_counter()
        saved = await client.exports.download(export_id, path)
        seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "bytes": saved.stat().st_size,
                      "rss_before_kb": before, "peak_kb": status_kb("VmHWM")}))

asyncio.run(main(*sys.argv[1:4]))
"""


@dataclass
class Run:
    seconds: float
    size: int
    peak_kb: int | None
    growth_kb: int | None = None

    @property
    def mb_per_s(self) -> float:
        return self.size / self.seconds / 1e6


# GNU time forks the child from a tiny process; counting a child's peak RSS from this one
# would include this process's own memory (Linux charges the pre-exec image to the child).
GNU_TIME = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)


def measured(argv: list[str]) -> tuple[str, int | None]:
    """Run a child to completion: its stdout, and its peak RSS in KiB when GNU time exists."""
    wrapped = [GNU_TIME, "-f", "%M", *argv] if GNU_TIME else argv
    done = subprocess.run(wrapped, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({done.returncode}): {done.stderr[-500:]!r}")
    peak = int(done.stderr.decode().split()[-1]) if GNU_TIME else None
    return done.stdout.decode(), peak


def client_run(base_url: str, export_id: str, target: Path) -> Run:
    out, _ = measured([sys.executable, "-c", CLIENT_CHILD, base_url, export_id, str(target)])
    doc = json.loads(out)
    target.unlink()
    growth = max(0, doc["peak_kb"] - doc["rss_before_kb"])
    return Run(doc["seconds"], doc["bytes"], doc["peak_kb"], growth)


def curl_run(curl: str, url: str, target: Path) -> Run:
    out, peak = measured(
        [
            curl,
            "-sS",
            "-f",
            "-o",
            str(target),
            "-H",
            f"Authorization: Bearer {KEY}",
            "-w",
            "%{time_total} %{size_download}",
            url,
        ]
    )
    seconds, size = out.split()
    target.unlink()
    return Run(float(seconds), int(float(size)), peak)


def prepare_export(http: httpx.Client, results: int) -> str:
    http.patch("/_sandbox/accounts/acct_demo", json={"credits": 10 * results}).raise_for_status()
    search = http.post("/api/v1/searches", json=BROAD, headers=AUTH).json()["data"]
    r = http.post(
        f"/api/v1/searches/{search['searchId']}/exports",
        json={"additional_results": results},
        headers={**AUTH, "Idempotency-Key": f"bench-{time.time_ns()}"},
    )
    r.raise_for_status()
    export_id: str = r.json()["data"]["exportId"]
    while (
        http.get(f"/api/v1/exports/{export_id}", headers=AUTH).json()["data"]["status"] != "ready"
    ):
        time.sleep(0.05)
    return export_id


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def static_server(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(root),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}"
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the static file server did not start")


def compare(
    label: str, base_url: str, export_id: str, curl: str | None, runs: int, work: Path
) -> None:
    url = f"{base_url}/api/v1/exports/{export_id}/download"
    ours: list[Run] = []
    theirs: list[Run] = []
    for _ in range(runs):  # interleaved, so both see the same machine
        ours.append(client_run(base_url, export_id, work / "client.zip"))
        if curl:
            theirs.append(curl_run(curl, url, work / "curl.zip"))
    size = ours[0].size
    client_speed = statistics.median(r.mb_per_s for r in ours)
    client_peak = max(r.peak_kb or 0 for r in ours) / 1024
    growth = max(r.growth_kb or 0 for r in ours) / 1024
    print(f"\n{label}: {size / 1e6:.1f} MB archive, median of {runs} runs")
    print(
        f"  leadtui   {client_speed:8.1f} MB/s   peak RSS {client_peak:6.1f} MiB"
        f"   (grew {growth:.1f} MiB while downloading)"
    )
    if not theirs:
        return
    curl_speed = statistics.median(r.mb_per_s for r in theirs)
    peaks = [r.peak_kb for r in theirs if r.peak_kb is not None]
    curl_peak = max(peaks) / 1024 if peaks else None
    peak_text = f"{curl_peak:6.1f} MiB" if curl_peak else "unknown (GNU time is missing)"
    print(f"  curl      {curl_speed:8.1f} MB/s   peak RSS {peak_text}")
    memory = f"{client_peak / curl_peak:.1f}" if curl_peak else "n/a"
    print(
        f"  ratio     throughput leadtui/curl = {client_speed / curl_speed:.2f}"
        f"   peak RSS leadtui/curl = {memory}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=50_000, help="leads in the export")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    curl = shutil.which("curl")
    if curl is None:
        print(
            "curl is MISSING (apt-get install -y curl): only leadtui's figures are shown, "
            "no ratios."
        )
    with (
        EmbeddedSandbox(SandboxConfig(job_seconds=0.1)) as sandbox,
        tempfile.TemporaryDirectory() as tmp,
    ):
        work = Path(tmp)
        with httpx.Client(base_url=sandbox.base_url, timeout=120) as http:
            export_id = prepare_export(http, args.results)
            archive = http.get(f"/api/v1/exports/{export_id}/download", headers=AUTH).content
        compare(
            "sandbox (builds the ZIP per request)",
            sandbox.base_url,
            export_id,
            curl,
            args.runs,
            work,
        )
        # The same bytes at the same path, served as a plain file.
        static_root = work / "static"
        served = static_root / "api" / "v1" / "exports" / export_id / "download"
        served.parent.mkdir(parents=True)
        served.write_bytes(archive)
        proc, static_url = static_server(static_root)
        try:
            compare("static file (the same archive)", static_url, export_id, curl, args.runs, work)
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
