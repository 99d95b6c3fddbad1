"""How a sandbox instance behaves: persistence, job speed, faults, latency and its clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class SandboxConfig:
    """Settings of one sandbox; `clock` is injectable so tests and snapshots can freeze time."""

    db_path: Path | None = None
    job_seconds: float = 5.0
    fault_rate: float = 0.0
    fault_seed: int | None = None
    latency_ms: int = 0
    clock: Callable[[], float] = field(default=time.time)
    # Demo Co starts with a month of history (`leadtui --demo`, `leadtui sandbox --demo-data`).
    demo_data: bool = False
