"""Every LEADTUI_* variable and what it means, in one place, for every surface (README's table
is checked against `VARIABLES`). Cheap to import (no pydantic): the first frame reads it too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

API_KEY_ENV: Final = "LEADTUI_API_KEY"
BASE_URL_ENV: Final = "LEADTUI_BASE_URL"
PROFILE_ENV: Final = "LEADTUI_PROFILE"
CONFIG_FILE_ENV: Final = "LEADTUI_CONFIG_FILE"
DEBUG_ENV: Final = "LEADTUI_DEBUG"
NO_INPUT_ENV: Final = "LEADTUI_NO_INPUT"

ENV_PREFIX: Final = "LEADTUI_"
ENV_NESTED_DELIMITER: Final = "__"


# Every variable leadtui reads, and what it does, as README's table says it. A setting's
# variable also sets its members with `__`.
VARIABLES: Final[dict[str, str]] = {
    BASE_URL_ENV: "the API base URL, without `/api/v1` (`--base-url` wins over it)",
    API_KEY_ENV: "the API key (takes precedence over a saved one)",
    PROFILE_ENV: "the profile to use (else `default`; `--profile` wins over it)",
    CONFIG_FILE_ENV: "the settings file (default under the platform config dir)",
    "LEADTUI_SPEND_BUDGET": "the setting `spend_budget` (`auth status` says when the budget "
    "is set only here)",
    "LEADTUI_READ_ONLY": "the setting `read_only` (`true` blocks every spend)",
    "LEADTUI_DOWNLOAD_DIR": "the setting `download_dir`",
    "LEADTUI_THEME": "the setting `theme`",
    "LEADTUI_NOTIFY_BELL": "the setting `notify_bell`",
    "LEADTUI_NOTIFY_DESKTOP": "the setting `notify_desktop`",
    "LEADTUI_KEYMAP": "the setting `keymap`, as JSON",
    "LEADTUI_POLLING": "the table `polling`, as JSON; or one member, e.g. "
    "`LEADTUI_POLLING__FAST_SECONDS`",
    "LEADTUI_PROFILES": "the table `profiles`, as JSON; or one member, e.g. "
    "`LEADTUI_PROFILES__WORK__READ_ONLY`",
    DEBUG_ENV: "`1`: a crash report adds the traceback (never the locals)",
    NO_INPUT_ENV: "`1`: the command line never prompts (what would be asked is refused)",
}


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The settings file: $LEADTUI_CONFIG_FILE, else <user config dir>/leadtui/config.toml."""
    override = (os.environ if environ is None else environ).get(CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("leadtui")) / "config.toml"


def setting_variables(
    settings: Iterable[str], environ: Mapping[str, str] | None = None
) -> list[str]:
    """The variables of `environ` (None: the process's) that set one of `settings` (their
    names), as pydantic-settings matches them: any case, `LEADTUI_<NAME>` or
    `LEADTUI_<NAME>__<member>...`."""
    env = os.environ if environ is None else environ
    fields = [f"{ENV_PREFIX}{name}".lower() for name in settings]
    return sorted(
        name
        for name in env
        if any(
            name.lower() == field or name.lower().startswith(field + ENV_NESTED_DELIMITER)
            for field in fields
        )
    )
