"""The sandbox's layering: it imports nothing of the app (only the client's contract and
models), and its domain — what the demo data seeds through — knows no routes."""

from __future__ import annotations

import subprocess
import sys

import pytest

FORBIDDEN = ("textual", "leadtui.ui", "leadtui.config", "leadtui.settings", "leadtui.spend")

pytestmark = pytest.mark.slow  # fresh interpreters, one per check

IMPORTS_AFTER = """
import sys
{imports}
print(" ".join(sorted(sys.modules)))
"""


def _modules_after(imports: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS_AFTER.format(imports=imports)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(done.stdout.split())


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


def test_a_running_sandbox_with_demo_data_imports_nothing_of_the_app() -> None:
    modules = _modules_after(
        "from leadtui.sandbox.app import create_app\n"
        "from leadtui.sandbox.config import SandboxConfig\n"
        "create_app(SandboxConfig(demo_data=True))"
    )
    assert "leadtui.sandbox.demo_data" in modules
    assert _loaded(modules, FORBIDDEN) == []
    client = {m for m in modules if m.startswith("leadtui.api.")}
    assert client == {"leadtui.api.contract", "leadtui.api.models"}


def test_the_demo_data_seeds_through_the_domain_not_the_routes() -> None:
    modules = _modules_after("import leadtui.sandbox.demo_data")
    assert "leadtui.sandbox.domain.exports" in modules
    assert _loaded(modules, ("leadtui.sandbox.routes", "leadtui.sandbox.auth")) == []
