"""The settings' fields and rules, and where they are found, without pydantic-settings.

One rule finds the settings: defaults < the TOML file ($LEADTUI_CONFIG_FILE, else under the
platform config dir) < LEADTUI_* variables, for the profile named by --profile, else
$LEADTUI_PROFILE, else "default". `Settings` (in `settings.py`) is this model plus the
pydantic-settings source that reads LEADTUI_* variables and the saving; importing it costs
~30 ms. A command that only reads settings calls `read_settings()`, which validates the file
with this model alone and hands over to the full loader only when a LEADTUI_* setting is set.

The API key is never a setting: it lives in the keyring (see `secrets.py`), the opt-in insecure
key file, or LEADTUI_API_KEY. A config file that holds one is refused when loaded.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from leadtui.config.errors import SettingsFileError
from leadtui.config.files import ensure_private_dir
from leadtui.config.settings_file import read_settings_file
from leadtui.config.variables import (
    ENV_NESTED_DELIMITER,
    ENV_PREFIX,
    PROFILE_ENV,
    config_path,
)

APP_NAME: Final = "leadtui"
DEFAULT_PROFILE: Final = "default"

# Each settled polling tick reads the first page of /exports and of /extractions.
REQUESTS_PER_SETTLED_TICK: Final = 2
MAX_SETTLED_REQUESTS_PER_MINUTE: Final = 12


def state_dir() -> Path:
    """Where the spend journal (and the opt-in insecure key file) live."""
    import platformdirs

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
    import platformdirs

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
    approvals: Literal["ask", "app"] | None = None
    """"app": a spend that nobody can be asked about here (a script, an agent) waits for a yes
    in the running app's Approvals screen instead of being refused."""


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
    budget_from_env: bool = False
    """True when the budget in force was set only by LEADTUI_SPEND_BUDGET."""


class SettingsModel(BaseModel):
    """Everything the user can set, and its rules. `Settings` adds LEADTUI_* and saving."""

    # As pydantic-settings configures `Settings`: defaults are validated too, nothing unknown.
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
            if not text.strip():
                raise ValueError("is empty")
            for position, char in enumerate(text, start=1):
                if char < " " or char == "\x7f":
                    raise ValueError(f"character {position} is a control character")
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
            name.lower() for name in setting_variables()
        }
        return SpendPolicy(
            spend_budget=budget,
            read_only=self.read_only or bool(chosen.read_only),
            budget_from_env=from_env,
        )


def setting_variables(environ: Mapping[str, str] | None = None) -> list[str]:
    """The LEADTUI_* variables that set a setting, as pydantic-settings matches them:
    any case, `LEADTUI_<FIELD>` or `LEADTUI_<FIELD>__<member>...`. LEADTUI_API_KEY,
    LEADTUI_BASE_URL, LEADTUI_PROFILE and LEADTUI_CONFIG_FILE are not settings."""
    env = os.environ if environ is None else environ
    fields = [f"{ENV_PREFIX}{name}".lower() for name in SettingsModel.model_fields]
    return sorted(
        name
        for name in env
        if any(
            name.lower() == field or name.lower().startswith(field + ENV_NESTED_DELIMITER)
            for field in fields
        )
    )


def invalid_settings(path: Path, error: ValidationError) -> SettingsFileError:
    """The settings the file (and LEADTUI_* over it) hold break a rule: one line, every problem."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}"
        for err in error.errors()
    )
    return SettingsFileError(f"{path} or LEADTUI_* variables", f"invalid settings: {problems}")


def read_settings(
    path: Path | None = None, environ: Mapping[str, str] | None = None
) -> SettingsModel:
    """The settings as `load_settings()` finds them, for whoever only reads them.

    Raises SettingsFileError or SettingsEnvironmentError, one line each, as `load_settings()`.
    """
    path = path or config_path(environ)
    return settings_from(read_settings_file(path), path, environ)


def settings_from(
    data: Mapping[str, Any], path: Path, environ: Mapping[str, str] | None = None
) -> SettingsModel:
    """The settings of the file's `data` (read from `path`) under the LEADTUI_* variables of
    `environ` (the process environment when None).

    Without a LEADTUI_* setting the data alone is validated here, by the same model; with one,
    `load_settings()`'s reader (pydantic-settings parses those values) takes over.
    """
    if setting_variables(environ):
        from leadtui.config.settings import settings_with_environment

        return settings_with_environment(data, path, environ)
    try:
        return SettingsModel.model_validate(data)
    except ValidationError as exc:
        raise invalid_settings(path, exc) from None
