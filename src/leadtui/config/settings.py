"""User settings: their fields and rules, how they are read and saved.

Defaults < the TOML file (`variables.config_path`) < LEADTUI_* variables. pydantic-settings
parses the LEADTUI_* values (JSON tables, `__` members) and keeps them out of the saved file;
importing it costs ~30 ms, so only when a LEADTUI_* setting is set or the settings are saved.
The API key is never a setting (see `secrets.py`): a config file that holds one is refused.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from leadtui.config.download_folder import control_character
from leadtui.config.errors import ConfigError, SettingsEnvironmentError, SettingsFileError
from leadtui.config.settings_file import (
    parse_settings_text,
    read_settings_text,
    write_settings_file,
)
from leadtui.config.variables import (
    ENV_NESTED_DELIMITER,
    ENV_PREFIX,
    config_path,
    setting_variables,
)

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings, SettingsError

APP_NAME: Final = "leadtui"
DEFAULT_PROFILE: Final = "default"

# Each settled polling tick reads the first page of /exports and of /extractions.
REQUESTS_PER_SETTLED_TICK: Final = 2
MAX_SETTLED_REQUESTS_PER_MINUTE: Final = 12
_SETTLED_SECONDS_MIN: Final = 60 * REQUESTS_PER_SETTLED_TICK / MAX_SETTLED_REQUESTS_PER_MINUTE


def state_dir() -> Path:
    """Where the spend journal (and the opt-in insecure key file) live."""
    import platformdirs

    return Path(platformdirs.user_state_dir(APP_NAME))


def _default_download_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_downloads_dir())


# The attribute docstrings below document each setting for readers. They are deliberately not
# fed to pydantic (use_attribute_docstrings): that parses this file's source at import, ~15 ms
# on the path to the credits, for descriptions nothing displays.


class Profile(BaseModel):
    """One account to sign in to. Unset overrides fall back to the global setting."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    """API base URL, without /api/v1."""
    spend_budget: int | None = Field(default=None, ge=0)
    """Overrides the global spend_budget for this profile."""
    read_only: bool | None = None
    """True blocks every spend for this profile even when the global setting allows it."""
    approvals: Literal["ask", "app"] | None = None
    """"app": a spend that nobody can be asked about here (a script, an agent) waits for a yes
    in the running app's Approvals screen instead of being refused."""


class Polling(BaseModel):
    """How often the jobs screen asks the server for news."""

    model_config = ConfigDict(extra="forbid")

    fast_seconds: float = Field(default=2.0, ge=0.5)
    """Interval while any job is queued, processing or running."""
    slow_seconds: float = Field(default=_SETTLED_SECONDS_MIN, ge=_SETTLED_SECONDS_MIN)
    """Interval when every job is settled (at most 12 requests a minute)."""

    @model_validator(mode="after")
    def _fast_not_slower(self) -> Polling:
        if self.fast_seconds > self.slow_seconds:
            raise ValueError("polling.fast_seconds must not exceed polling.slow_seconds")
        return self


@dataclass(frozen=True)
class SpendPolicy:
    """What the spend gate enforces for one profile."""

    spend_budget: int
    read_only: bool
    budget_from_env: bool = False
    """True when the budget in force was set only by LEADTUI_SPEND_BUDGET."""


class Settings(BaseModel):
    """Everything the user can set, and its rules."""

    # Defaults are validated too, and nothing unknown is taken.
    model_config = ConfigDict(validate_assignment=True, validate_default=True, extra="forbid")

    profiles: dict[str, Profile] = Field(default_factory=dict)
    """Accounts by profile name."""
    theme: Literal["dark", "light"] = "dark"
    """The colour theme, remembered between runs."""
    spend_budget: int = Field(default=0, ge=0)
    """Approve spends up to N credits without asking (0: always ask)."""
    read_only: bool = False
    """Block every spend."""
    download_dir: Path = Field(default_factory=_default_download_dir)
    """Where downloaded exports are saved."""
    notify_bell: bool = True
    """Ring the terminal bell when a job finishes."""
    notify_desktop: bool = False
    """Send a desktop notification (OSC 9/777) when a job finishes."""
    keymap: dict[str, str] = Field(default_factory=dict)
    """Binding id → keys, e.g. {"unlock": "u,ctrl+u"}, passed to App.set_keymap."""
    polling: Polling = Field(default_factory=Polling)
    """Polling intervals of the jobs screen."""

    @field_validator("download_dir", mode="before")
    @classmethod
    def _a_usable_path(cls, value: Any) -> Any:
        # Refused here, not on the first download: the OS rejects these only when writing.
        text = os.fspath(value) if isinstance(value, str | os.PathLike) else value
        if isinstance(text, str):
            problem = "is empty" if not text.strip() else control_character(text)
            if problem is not None:
                raise ValueError(problem)
        return value

    def profile(self, name: str) -> Profile:
        """The named profile, or an empty one when it was never saved."""
        return self.profiles.get(name) or Profile()

    def with_profile(self, name: str, **changes: Any) -> Self:
        """A copy with the named profile updated (validated)."""
        updated = Profile.model_validate({**self.profile(name).model_dump(), **changes})
        copy = self.model_copy(deep=True)
        copy.profiles = {**copy.profiles, name: updated}
        return copy

    def spend_policy(self, profile: str) -> SpendPolicy:
        """The budget is overridden per profile; read-only can only be added by a profile."""
        chosen = self.profile(profile)
        budget = self.spend_budget if chosen.spend_budget is None else chosen.spend_budget
        from_env = chosen.spend_budget is None and f"{ENV_PREFIX}spend_budget" in {
            name.lower() for name in setting_variables(SETTING_NAMES)
        }
        return SpendPolicy(
            spend_budget=budget,
            read_only=self.read_only or bool(chosen.read_only),
            budget_from_env=from_env,
        )


SETTING_NAMES: Final = tuple(Settings.model_fields)
"""The settings' names, as their LEADTUI_* variables spell them after the prefix."""


def settings_from(
    data: Mapping[str, Any], path: Path, environ: Mapping[str, str] | None = None
) -> Settings:
    """The settings of the file's `data` (read from `path`) under the LEADTUI_* variables of
    `environ` (None: the process's). Raises SettingsFileError (naming the key) or
    SettingsEnvironmentError (naming the variable), one line each."""
    variables = setting_variables(SETTING_NAMES, environ)
    values = _variable_values(environ) if variables else {}
    try:
        return Settings.model_validate(_deep_merge(dict(data), values))
    except ValidationError as exc:
        raise _invalid(exc, path, variables) from None


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over` wins, table by table, as pydantic-settings merges its sources."""
    for name, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(name), dict):
            base[name] = _deep_merge(dict(base[name]), value)
        else:
            base[name] = value
    return base


def _variable_values(environ: Mapping[str, str] | None) -> dict[str, Any]:
    """The settings the LEADTUI_* variables of `environ` set, decoded as pydantic-settings
    decodes them (JSON for tables, `__` for members, any case)."""
    from pydantic_settings import EnvSettingsSource, SettingsError
    from pydantic_settings.sources.utils import parse_env_vars

    class VariablesOf(EnvSettingsSource):
        def _load_env_vars(self) -> Mapping[str, str | None]:
            return parse_env_vars(
                os.environ if environ is None else environ,
                self.case_sensitive,
                self.env_ignore_empty,
                self.env_parse_none_str,
            )

    try:
        return VariablesOf(_read_from_variables())()
    except SettingsError as exc:
        raise _undecodable(exc) from None


@functools.cache
def _read_from_variables() -> type[BaseSettings]:
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class FromVariables(Settings, BaseSettings):
        model_config = SettingsConfigDict(
            env_prefix=ENV_PREFIX, env_nested_delimiter=ENV_NESTED_DELIMITER, extra="forbid"
        )

    return FromVariables


def _undecodable(exc: SettingsError) -> SettingsEnvironmentError:
    """pydantic-settings could not decode a LEADTUI_* variable (JSON for tables)."""
    field = next((name for name in SETTING_NAMES if f'"{name}"' in str(exc)), None)
    where = f"{ENV_PREFIX}{field.upper()}" if field else f"a {ENV_PREFIX}* variable"
    cause = exc.__cause__
    detail = f": {cause}" if isinstance(cause, ValueError) else ""
    return SettingsEnvironmentError(where, f"not valid JSON{detail}")


def _invalid(error: ValidationError, path: Path, variables: list[str]) -> ConfigError:
    """The settings break a rule: one line, every problem, each named where it was written
    (the variable that set it, else the file and the key)."""
    sources: dict[str, None] = {}  # in order, each once
    problems: list[str] = []
    for err in error.errors():
        key = ".".join(str(p) for p in err["loc"]) or "settings"
        sources[_variable_of(key, variables) or str(path)] = None
        problems.append(f"{key}: {err['msg']}")
    where = ", ".join(sources)
    problem = f"invalid settings: {'; '.join(problems)}"
    if str(path) in sources:
        return SettingsFileError(where, problem)
    return SettingsEnvironmentError(where, problem)


def _variable_of(key: str, variables: list[str]) -> str | None:
    """The variable that set the setting `key` ("polling.fast_seconds"): the member's own,
    else its table's, else one that set a member inside it."""
    parts = key.lower().split(".")
    by_name = {name.lower(): name for name in variables}
    for depth in range(len(parts), 0, -1):
        name = by_name.get(ENV_PREFIX.lower() + ENV_NESTED_DELIMITER.join(parts[:depth]))
        if name is not None:
            return name
    inside = ENV_PREFIX.lower() + ENV_NESTED_DELIMITER.join(parts) + ENV_NESTED_DELIMITER
    return next((name for name in variables if name.lower().startswith(inside)), None)


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


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings into the config file (through a link), atomically, keeping its
    comments and layout (see `write_settings_file`); LEADTUI_* overrides are never saved.
    Raises SettingsFileError when the file cannot be read or written."""
    path = path or config_path()
    target = path.resolve() if path.is_symlink() else path
    text = read_settings_text(target)
    on_file = parse_settings_text(target, text)
    env = _variable_values(None)
    full = settings.model_dump(mode="json", exclude_none=True)
    changed = settings.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    write_settings_file(
        target,
        text,
        _without_environment(full, env, on_file),
        _without_environment(changed, env, on_file),
    )
    return path
