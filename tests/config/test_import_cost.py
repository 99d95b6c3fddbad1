"""The settings layer stays off the slow paths: no keyring, Textual or sandbox at import."""

from __future__ import annotations

import subprocess
import sys


def test_settings_import_without_keyring_textual_or_sandbox() -> None:
    code = (
        "import sys\n"
        "import leadtui.config.profile, leadtui.spend.gate, leadtui.cli.auth\n"
        "print(sorted(m for m in ('keyring', 'textual', 'fastapi') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
