"""`leadtui sandbox ...`: serve the sandbox until Ctrl-C, on loopback unless told otherwise."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from leadtui.sandbox.accounts import describe_keys
from leadtui.sandbox.config import SandboxConfig

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


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

    if not 0 <= ns.fault_rate <= 1:
        print("--fault-rate must be between 0 and 1", file=sys.stderr)
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
