"""End-to-end fixtures: a sandbox served by uvicorn on a loopback socket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.embedded import EmbeddedSandbox


@pytest.fixture
def live_sandbox() -> Iterator[EmbeddedSandbox]:
    with EmbeddedSandbox(SandboxConfig(job_seconds=0.3)) as sandbox:
        yield sandbox
