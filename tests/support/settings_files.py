"""The settings as every surface reads them, from the file and the LEADTUI_* variables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from leadtui.config.settings import Settings, settings_from
from leadtui.config.settings_file import read_settings_file
from leadtui.config.variables import config_path


def load_settings(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Defaults < the config file < the LEADTUI_* variables of `environ` (None: the process's)."""
    path = path or config_path(environ)
    return settings_from(read_settings_file(path), path, environ)
