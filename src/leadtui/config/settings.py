"""User settings: a TOML file under the platformdirs config dir, overridden by LEADTUI_* variables.

The API key is never a setting: it lives in the keyring (see `secrets.py`), the opt-in insecure
key file, or LEADTUI_API_KEY. A config file that holds one is refused when loaded.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import platformdirs
import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from leadtui.durable import write_atomically

APP_NAME: Final = "leadtui"
ENV_PREFIX: Final = "LEADTUI_"
CONFIG_FILE_ENV: Final = "LEADTUI_CONFIG_FILE"
PROFILE_ENV: Final = "LEADTUI_PROFILE"
DEFAULT_PROFILE: Final = "default"

# Each settled polling tick reads the first page of /exports and of /extractions.
REQUESTS_PER_SETTLED_TICK: Final = 2
MAX_SETTLED_REQUESTS_PER_MINUTE: Final = 12

# Names under which people paste secrets into config files; refused on load.
_SECRET_NAMES: Final = frozenset({"api_key", "apikey", "key", "token", "secret"})


class SettingsFileError(Exception):
    """The config file cannot be read or does not hold valid settings."""


def config_path() -> Path:
    """The TOML file: $LEADTUI_CONFIG_FILE, else <user config dir>/leadtui/config.toml."""
    override = os.environ.get(CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def state_dir() -> Path:
    """Where the spend journal (and the opt-in insecure key file) live."""
    return Path(platformdirs.user_state_dir(APP_NAME))


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


def _refuse_secrets(data: Mapping[str, Any], path: Path) -> None:
    tables: list[tuple[str, Mapping[str, Any]]] = [("", data)]
    profiles = data.get("profiles")
    if isinstance(profiles, Mapping):
        tables += [(f"profiles.{n}.", t) for n, t in profiles.items() if isinstance(t, Mapping)]
    for prefix, table in tables:
        for name in table:
            if name.lower() in _SECRET_NAMES:
                raise SettingsFileError(
                    f"{path}: '{prefix}{name}' looks like an API key, and keys never go in the "
                    "config file. Remove it, then run `leadtui login` or set LEADTUI_API_KEY."
                )


def read_settings_file(path: Path | None = None) -> dict[str, Any]:
    """The raw contents of the config file ({} when it does not exist)."""
    path = path or config_path()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsFileError(f"{path}: cannot read settings: {exc}") from None
    _refuse_secrets(data, path)
    return data


def load_settings(path: Path | None = None) -> Settings:
    """Defaults < config file < LEADTUI_* environment variables."""
    path = path or config_path()
    data = read_settings_file(path)
    try:
        return Settings(**data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}"
            for err in exc.errors()
        )
        raise SettingsFileError(f"{path} or LEADTUI_* variables: {problems}") from None


def _environment_values() -> dict[str, Any]:
    return EnvSettingsSource(Settings)()


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
    """Write the settings that differ from the defaults, atomically; returns the path."""
    path = path or config_path()
    data = settings.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    data = _without_environment(data, _environment_values(), read_settings_file(path))
    write_atomically(path, tomli_w.dumps(data).encode())
    return path
