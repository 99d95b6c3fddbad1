"""User settings: a TOML file under the platformdirs config dir, overridden by LEADTUI_* variables.

The API key is never a setting: it lives in the keyring (see `secrets.py`), the opt-in insecure
key file, or LEADTUI_API_KEY. A config file that holds one is refused when loaded.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from leadtui.config.errors import SettingsEnvironmentError as SettingsEnvironmentError
from leadtui.config.errors import SettingsFileError as SettingsFileError
from leadtui.config.files import ensure_private_dir
from leadtui.config.settings_file import (
    parse_settings_text,
    read_settings_file,
    read_settings_text,
    write_settings_file,
)

APP_NAME: Final = "leadtui"
ENV_PREFIX: Final = "LEADTUI_"
CONFIG_FILE_ENV: Final = "LEADTUI_CONFIG_FILE"
PROFILE_ENV: Final = "LEADTUI_PROFILE"
DEFAULT_PROFILE: Final = "default"

# Each settled polling tick reads the first page of /exports and of /extractions.
REQUESTS_PER_SETTLED_TICK: Final = 2
MAX_SETTLED_REQUESTS_PER_MINUTE: Final = 12


def config_path() -> Path:
    """The TOML file: $LEADTUI_CONFIG_FILE, else <user config dir>/leadtui/config.toml."""
    override = os.environ.get(CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def state_dir() -> Path:
    """Where the spend journal (and the opt-in insecure key file) live."""
    return Path(platformdirs.user_state_dir(APP_NAME))


def ensure_state_dir() -> Path:
    """The state dir, made 0700 if missing; raises StateDirError naming the path and errno."""
    return ensure_private_dir(state_dir())


def resolve_profile_name(
    cli_profile: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """`--profile` > $LEADTUI_PROFILE > "default"."""
    if cli_profile:
        return cli_profile
    env = os.environ if environ is None else environ
    return env.get(PROFILE_ENV) or DEFAULT_PROFILE


def _default_download_dir() -> Path:
    return Path(platformdirs.user_downloads_dir())


# The attribute docstrings below document each setting for readers. They are deliberately not
# fed to pydantic (use_attribute_docstrings): that parses this file's source at import, ~15 ms
# on the path to the first frame, for descriptions nothing displays.


class Profile(BaseModel):
    """One account to sign in to. Unset overrides fall back to the global setting."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    """API base URL, without /api/v1."""
    spend_budget: int | None = Field(default=None, ge=0)
    """Overrides the global spend_budget for this profile."""
    read_only: bool | None = None
    """True blocks every spend for this profile even when the global setting allows it."""


class Polling(BaseModel):
    """How often the jobs screen asks the server for news."""

    model_config = ConfigDict(extra="forbid")

    fast_seconds: float = Field(default=2.0, ge=0.5)
    """Interval while any job is queued, processing or running."""
    slow_seconds: float = Field(
        default=60 * REQUESTS_PER_SETTLED_TICK / MAX_SETTLED_REQUESTS_PER_MINUTE,
        ge=60 * REQUESTS_PER_SETTLED_TICK / MAX_SETTLED_REQUESTS_PER_MINUTE,
    )
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


class Settings(BaseSettings):
    """Everything the user can set; load with `load_settings()`, save with `save_settings()`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        validate_assignment=True,
        extra="forbid",
    )

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
            if not text.strip():
                raise ValueError("is empty")
            for position, char in enumerate(text, start=1):
                if char < " " or char == "\x7f":
                    raise ValueError(f"character {position} is a control character")
        return value

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

    def profile(self, name: str) -> Profile:
        """The named profile, or an empty one when it was never saved."""
        return self.profiles.get(name) or Profile()

    def with_profile(self, name: str, **changes: Any) -> Settings:
        """A copy with the named profile updated (validated)."""
        updated = Profile.model_validate({**self.profile(name).model_dump(), **changes})
        copy = self.model_copy(deep=True)
        copy.profiles = {**copy.profiles, name: updated}
        return copy

    def spend_policy(self, profile: str) -> SpendPolicy:
        """The budget is overridden per profile; read-only can only be added by a profile."""
        chosen = self.profile(profile)
        budget = self.spend_budget if chosen.spend_budget is None else chosen.spend_budget
        return SpendPolicy(spend_budget=budget, read_only=self.read_only or bool(chosen.read_only))


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
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}"
            for err in exc.errors()
        )
        raise SettingsFileError(
            f"{path} or LEADTUI_* variables", f"invalid settings: {problems}"
        ) from None


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


def save_settings(settings: Settings, path: Path | None = None) -> Path:
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
