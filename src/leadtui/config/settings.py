"""User settings, loaded and saved: the TOML file under the platformdirs config dir, overridden
by LEADTUI_* variables (read by pydantic-settings).

The fields and their rules, where the file is and which profile is used live in
`settings_model.py`, which needs no pydantic-settings: commands that only read settings use
its `read_settings()`. Everything here is also importable from this module, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)
from pydantic_settings.sources.utils import parse_env_vars

from leadtui.config.errors import SettingsEnvironmentError, SettingsFileError
from leadtui.config.settings_file import (
    parse_settings_text,
    read_settings_file,
    read_settings_text,
    write_settings_file,
)
from leadtui.config.settings_model import (
    APP_NAME,
    DEFAULT_PROFILE,
    MAX_SETTLED_REQUESTS_PER_MINUTE,
    REQUESTS_PER_SETTLED_TICK,
    Polling,
    Profile,
    SettingsModel,
    SpendPolicy,
    ensure_state_dir,
    invalid_settings,
    resolve_profile_name,
    state_dir,
)
from leadtui.config.variables import (
    CONFIG_FILE_ENV,
    ENV_NESTED_DELIMITER,
    ENV_PREFIX,
    PROFILE_ENV,
    config_path,
)

__all__ = [
    "APP_NAME",
    "CONFIG_FILE_ENV",
    "DEFAULT_PROFILE",
    "ENV_PREFIX",
    "MAX_SETTLED_REQUESTS_PER_MINUTE",
    "PROFILE_ENV",
    "REQUESTS_PER_SETTLED_TICK",
    "Polling",
    "Profile",
    "Settings",
    "SettingsEnvironmentError",
    "SettingsFileError",
    "SpendPolicy",
    "config_path",
    "ensure_state_dir",
    "load_settings",
    "resolve_profile_name",
    "save_settings",
    "state_dir",
]


class Settings(SettingsModel, BaseSettings):
    """Everything the user can set; load with `load_settings()`, save with `save_settings()`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter=ENV_NESTED_DELIMITER,
        validate_assignment=True,
        extra="forbid",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # load_settings() passes the file's contents as init values: LEADTUI_* must win over them.
        return (env_settings, init_settings)


def load_settings(path: Path | None = None) -> Settings:
    """Defaults < config file < LEADTUI_* environment variables.

    Raises SettingsFileError (the file) or SettingsEnvironmentError (a variable), one line each.
    """
    path = path or config_path()
    data = read_settings_file(path)
    try:
        return Settings(**data)
    except SettingsError as exc:
        raise _environment_error(exc) from None
    except ValidationError as exc:
        raise invalid_settings(path, exc) from None


class _EnvironmentOf(EnvSettingsSource):
    """Settings' LEADTUI_* variables read from a given environment, not the process's."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ  # read by __init__ below, through _load_env_vars
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(
            self._environ, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str
        )


def settings_with_environment(
    data: Mapping[str, Any], path: Path, environ: Mapping[str, str] | None = None
) -> SettingsModel:
    """The file's `data` under the LEADTUI_* variables of `environ` (None: the process's), by
    the same rules as `load_settings()`."""
    if environ is None:
        try:
            return Settings(**data)
        except SettingsError as exc:
            raise _environment_error(exc) from None
        except ValidationError as exc:
            raise invalid_settings(path, exc) from None
    try:
        values = _EnvironmentOf(environ)()
    except SettingsError as exc:
        raise _environment_error(exc) from None
    try:
        return SettingsModel.model_validate(_deep_merge(dict(data), values))
    except ValidationError as exc:
        raise invalid_settings(path, exc) from None


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over` wins, table by table, as pydantic-settings merges its sources."""
    for name, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(name), dict):
            base[name] = _deep_merge(dict(base[name]), value)
        else:
            base[name] = value
    return base


def _environment_error(exc: SettingsError) -> SettingsEnvironmentError:
    """pydantic-settings could not decode a LEADTUI_* variable (JSON for tables)."""
    field = next((name for name in Settings.model_fields if f'"{name}"' in str(exc)), None)
    where = f"{ENV_PREFIX}{field.upper()}" if field else f"a {ENV_PREFIX}* variable"
    cause = exc.__cause__
    detail = f": {cause}" if isinstance(cause, ValueError) else ""
    return SettingsEnvironmentError(where, f"not valid JSON{detail}")


def _environment_values() -> dict[str, Any]:
    try:
        return EnvSettingsSource(Settings)()
    except SettingsError as exc:
        raise _environment_error(exc) from None


def _without_environment(
    data: dict[str, Any], env: Mapping[str, Any], on_file: Mapping[str, Any]
) -> dict[str, Any]:
    """Values that came from LEADTUI_* are not the user's saved choices: keep the file's."""
    result = dict(data)
    for name, env_value in env.items():
        file_value = on_file.get(name)
        if isinstance(env_value, Mapping) and isinstance(result.get(name), dict):
            kept = _without_environment(
                result[name], env_value, file_value if isinstance(file_value, Mapping) else {}
            )
            if kept or name in on_file:
                result[name] = kept
            else:
                result.pop(name)
        elif file_value is not None:
            result[name] = file_value
        else:
            result.pop(name, None)
    return result


def save_settings(settings: SettingsModel, path: Path | None = None) -> Path:
    """Write the settings into the config file, atomically, keeping its comments and layout.

    Values that differ from the defaults are added; values already on file are updated in
    place; LEADTUI_* overrides are never saved. A symlinked file is written through its link.
    Returns the path; raises SettingsFileError when the file cannot be read or written.
    """
    path = path or config_path()
    target = path.resolve() if path.is_symlink() else path
    text = read_settings_text(target)
    on_file = parse_settings_text(target, text)
    env = _environment_values()
    full = settings.model_dump(mode="json", exclude_none=True)
    changed = settings.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    write_settings_file(
        target,
        text,
        _without_environment(full, env, on_file),
        _without_environment(changed, env, on_file),
    )
    return path
