"""Shared fixtures: every test runs isolated from the user's machine.

XDG dirs point under tmp_path, the keyring is in memory, and no LEADTUI_* variable leaks in.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from tests.support.memory_keyring import MemoryKeyring


@pytest.fixture(autouse=True)
def isolated_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    for name in list(os.environ):
        if name.startswith("LEADTUI_"):
            monkeypatch.delenv(name)
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        path = tmp_path / "xdg" / var.lower()
        path.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(var, str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    try:
        yield memory
    finally:
        keyring.set_keyring(previous)
