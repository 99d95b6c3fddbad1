"""What the first frame looks like (theme, keymap), read before pydantic is imported: the
settings file and variables by the settings reader's own parts, without the model. What this
quick read cannot take is left to the settings reader, which runs next; nothing here decides a
policy (read-only, budget).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from leadtui.config.errors import ConfigError
from leadtui.config.settings_file import read_settings_file
from leadtui.config.variables import ENV_PREFIX, config_path, setting_variables

THEMES: Final = ("dark", "light")


@dataclass(frozen=True)
class Looks:
    theme: str = "dark"
    keymap: dict[str, str] = field(default_factory=dict)


def first_frame_looks(environ: Mapping[str, str] | None = None) -> Looks:
    """The theme and keymap of the settings file under their LEADTUI_* variables; the
    defaults for whatever cannot be read quickly."""
    env = os.environ if environ is None else environ
    try:
        data = read_settings_file(config_path(env))
    except ConfigError:
        data = {}
    theme = _variable(env, "theme") or data.get("theme")
    keymap: Any = data.get("keymap")
    raw_keymap = _variable(env, "keymap")
    if raw_keymap is not None:
        try:
            keymap = json.loads(raw_keymap)
        except ValueError:
            keymap = None
    return Looks(
        theme=theme if theme in THEMES else "dark",
        keymap={str(k): str(v) for k, v in keymap.items()} if isinstance(keymap, dict) else {},
    )


def _variable(env: Mapping[str, str], setting: str) -> str | None:
    """The value of the setting's own variable (a member's `__` variable is left to the
    settings reader)."""
    own = f"{ENV_PREFIX}{setting}".lower()
    return next((env[n] for n in setting_variables((setting,), env) if n.lower() == own), None)
