"""The package as an installer sees it: a LICENSE (MIT) in its metadata, classifiers,
`leadtui --version`, and a missing extra named in one line (exit 2), never a traceback."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import metadata, version
from pathlib import Path

import pytest

from leadtui.cli.exit_codes import Exit
from tests.e2e.sandbox_process import clean_env

ROOT = Path(__file__).parents[2]

# `leadtui ARGV…` with the modules named hidden, as if their extra were not installed.
WITHOUT = """
import sys
hidden, argv = sys.argv[1].split(","), sys.argv[2:]
for name in hidden:
    sys.modules[name] = None  # `import name` now raises ModuleNotFoundError
from leadtui.cli.main import main
sys.exit(main(argv))
"""


def test_the_license_is_mit_and_shipped() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    about = metadata("leadtui")
    assert about["License-Expression"] == "MIT"
    assert about.get_all("License-File") == ["LICENSE"]


def test_the_metadata_says_what_it_runs_on() -> None:
    classifiers = metadata("leadtui").get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers
    assert "Environment :: Console" in classifiers
    assert metadata("leadtui")["Requires-Python"] == ">=3.11"


def test_version_is_the_installed_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "leadtui", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=clean_env(),
    )
    assert done.returncode == 0
    assert done.stdout == f"leadtui {version('leadtui')}\n"


@pytest.mark.parametrize(
    ("hidden", "argv", "extra"),
    [
        ("uvicorn", ["--demo"], "sandbox"),
        ("fastapi", ["--demo"], "sandbox"),
        ("uvicorn", ["sandbox", "--port", "0"], "sandbox"),
        ("fastapi,uvicorn,faker", ["sandbox", "--port", "0"], "sandbox"),
        ("mcp", ["mcp"], "mcp"),
    ],
)
def test_a_missing_extra_is_named_in_one_line(hidden: str, argv: list[str], extra: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT, hidden, *argv],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
        env=clean_env(),
    )
    assert done.returncode == Exit.USAGE
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert f"pip install 'leadtui[{extra}]'" in line
    assert done.stdout == ""
