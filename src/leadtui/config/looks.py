"""What the first frame looks like (theme, keymap), read before pydantic is imported.

The same file and the same LEADTUI_* variables as the full settings reader; anything this
quick read cannot take is left to that reader, which runs next and applies what it finds.
Nothing here decides a policy (read-only, budget): that is the profile resolver's alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from leadtui.config.variables import config_path

THEMES: Final = ("dark", "light")
_THEME_ENV: Final = "LEADTUI_THEME"
_KEYMAP_ENV: Final = "LEADTUI_KEYMAP"


@dataclass(frozen=True)
class Looks:
    theme: str = "dark"
    keymap: dict[str, str] = field(default_factory=dict)


def first_frame_looks(environ: Mapping[str, str] | None = None) -> Looks:
    """The theme and keymap of the settings file under their LEADTUI_* variables; the
    defaults for whatever cannot be read quickly."""
    env = os.environ if environ is None else environ
    data = _file_data(env)
    theme = _variable(env, _THEME_ENV) or data.get("theme")
    keymap: Any = data.get("keymap")
    raw_keymap = _variable(env, _KEYMAP_ENV)
    if raw_keymap is not None:
        try:
            keymap = json.loads(raw_keymap)
        except ValueError:
            keymap = None
    return Looks(
        theme=theme if theme in THEMES else "dark",
        keymap={str(k): str(v) for k, v in keymap.items()} if isinstance(keymap, dict) else {},
    )


def _variable(env: Mapping[str, str], name: str) -> str | None:
    # Any case, as pydantic-settings matches the settings' variables.
    return next((value for key, value in env.items() if key.upper() == name), None)


def _file_data(env: Mapping[str, str]) -> dict[str, Any]:
    path = config_path(env)
    try:
        # A FIFO or a device would block the first frame: only a regular file is read here.
        if not path.is_file():
            return {}
        import tomllib  # ~5 ms: not imported when there is no settings file

        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):  # TOMLDecodeError is a ValueError
        return {}
