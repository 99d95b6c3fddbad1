"""`leadtui sandbox ...`: serve the sandbox until Ctrl-C, on loopback unless told otherwise."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from leadtui.sandbox.accounts import describe_keys
from leadtui.sandbox.config import SandboxConfig

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
# The demo's jobs take long enough to be watched: its waiting export leaves the queue some 80 s
# after the start and is ready some 20 s later, its running extraction ends after about 40 s.
DEMO_JOB_SECONDS = 20.0


def fault_rate_problem(rate: float) -> str | None:
    return None if 0 <= rate <= 1 else "--fault-rate must be between 0 and 1"


def demo_config(ns: argparse.Namespace) -> SandboxConfig:
    """`leadtui --demo`'s sandbox: Demo Co's history, watchable jobs, the faults asked for."""
    return SandboxConfig(
        job_seconds=DEMO_JOB_SECONDS,
        fault_rate=ns.demo_fault_rate,
        latency_ms=ns.demo_latency_ms,
        demo_data=True,
    )


def config_from(ns: argparse.Namespace) -> SandboxConfig:
    return SandboxConfig(
        db_path=Path(ns.db) if ns.db else None,
        job_seconds=ns.job_seconds,
        fault_rate=ns.fault_rate,
        fault_seed=ns.fault_seed,
        latency_ms=ns.latency_ms,
        demo_data=ns.demo_data,
    )


def run(ns: argparse.Namespace) -> int:
    """Print the base URL and the demo keys, then serve until interrupted."""
    import uvicorn

    from leadtui.sandbox.app import create_app

    problem = fault_rate_problem(ns.fault_rate)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    app = create_app(config_from(ns))
    app.state.sandbox.served_over_socket = True
    host = "[::1]" if ns.host == "::1" else ns.host
    print(f"Lead Data API sandbox on http://{host}:{ns.port}  (API under /api/v1)")
    state = f"kept in {ns.db}" if ns.db else "fresh, in memory"
    if ns.demo_data:
        state += "; Demo Co starts with a month of demo history"
    print("State: " + state)
    if ns.host not in _LOOPBACK:
        print(f"Warning: listening on {ns.host}, reachable from other machines.", file=sys.stderr)
    print("Demo keys:")
    for key, description in describe_keys():
        print(f"  {key:<20} {description}")
    print("Press Ctrl-C to stop.", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(app, host=ns.host, port=ns.port, log_level="info", lifespan="off")
    return 0
