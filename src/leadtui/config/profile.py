"""The one resolver of a profile, for every surface: the app, the command line, the tool server.

- the profile: `--profile`, else $LEADTUI_PROFILE, else "default"; a name the settings file
  does not hold (other than "default") is refused, never taken as an empty profile (that would
  skip its `read_only`);
- the server: `--base-url`, else $LEADTUI_BASE_URL, else the profile's `base_url`;
- the key: $LEADTUI_API_KEY, else the OS keyring, else the opt-in key file (reading it may
  wait on the keyring: `read_key=False` leaves it for `with_key`, off the UI thread);
- read-only, the spend budget, the download folder: as the settings say (`settings.py`); a
  profile's `spend_budget` overrides the global one, its `read_only` can only add to it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import SecretStr, ValidationError

from leadtui.api.keys import api_key_problem, mask_key
from leadtui.config.errors import ConfigError, InvalidApiKey
from leadtui.config.settings import (
    DEFAULT_PROFILE,
    Settings,
    SpendPolicy,
    settings_from,
)
from leadtui.config.settings_file import read_settings_file
from leadtui.config.variables import API_KEY_ENV, BASE_URL_ENV, PROFILE_ENV, config_path

if TYPE_CHECKING:
    from leadtui.config.secrets import KeySource, KeyStore

BudgetSource = Literal["default", "settings file", "environment"]


class UnknownProfile(ConfigError):
    """A profile name the settings file does not hold: refused, so that a typo never runs
    without the intended profile's `read_only` or budget."""

    code = "unknown_profile"
    title = "Unknown profile"

    def __init__(self, where: str, name: str, path: Path, known: list[str]) -> None:
        listed = ", ".join(f"'{n}'" for n in known) if known else "none"
        super().__init__(
            where,
            f"no profile '{name}' in {path} (profiles there: {listed}). "
            f"Check the name, or create it with `leadtui login --profile {name}`",
        )
        self.name = name


@dataclass(frozen=True)
class ResolvedProfile:
    """What one profile comes to: where to send, with which key, under which policy."""

    name: str
    name_source: str  # "--profile", "LEADTUI_PROFILE" or "default"
    settings: Settings  # as read: the file and the LEADTUI_* variables
    config_file: Path
    base_url: str | None
    base_url_source: str | None  # "--base-url", "environment", "profile"; None without a URL
    policy: SpendPolicy
    budget_source: BudgetSource
    download_dir: Path
    key: SecretStr | None = field(default=None, repr=False)
    key_source: KeySource | None = None

    @property
    def approvals_in_app(self) -> bool:
        """`approvals = "app"`: a spend nobody can be asked about here (a script, an agent)
        waits for a yes in the running app instead of being refused."""
        return self.settings.profile(self.name).approvals == "app"

    @property
    def key_masked(self) -> str | None:
        return mask_key(self.key.get_secret_value()) if self.key is not None else None

    @property
    def needs_sign_in(self) -> bool:
        return self.key is None or not self.base_url

    def with_key(
        self, keystore: KeyStore | None = None, environ: Mapping[str, str] | None = None
    ) -> ResolvedProfile:
        """This profile with its key. Raises InvalidApiKey when LEADTUI_API_KEY could never
        be sent, KeyStoreError when the keyring fails and no other key is at hand
        (UnusableStoredKey, both, for such a saved key)."""
        from leadtui.config.secrets import KeySource, KeyStore

        env = os.environ if environ is None else environ
        env_key = env.get(API_KEY_ENV, "").strip()
        if env_key:
            problem = api_key_problem(env_key)
            if problem is not None:
                raise InvalidApiKey(API_KEY_ENV, f"{problem}; nothing was sent")
            return replace(self, key=SecretStr(env_key), key_source=KeySource.ENVIRONMENT)
        stored = (keystore or KeyStore()).get(self.name)
        if stored is None:
            return replace(self, key=None, key_source=None)
        return replace(self, key=stored.key, key_source=stored.source)


def resolve_profile(
    profile: str | None = None,
    *,
    base_url: str | None = None,
    environ: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    keystore: KeyStore | None = None,
    read_key: bool = True,
    must_exist: bool = True,
) -> ResolvedProfile:
    """The profile named by `profile` (--profile), resolved as the module says; `settings`
    as given instead of read (the app, once running). `must_exist=False` lets a name the file
    does not hold through: only `leadtui login`, which creates it. Raises UnknownProfile, the
    settings reader's errors, and with `read_key` those of `ResolvedProfile.with_key`."""
    env = os.environ if environ is None else environ
    path = config_path(env)
    on_file: dict[str, object] | None = None
    if settings is None:
        on_file = read_settings_file(path)
        settings = settings_from(on_file, path, env)
    name, name_source = profile_name(profile, env)
    if must_exist and name != DEFAULT_PROFILE and name not in settings.profiles:
        raise UnknownProfile(name_source, name, path, sorted(settings.profiles))

    url: str | None = base_url or env.get(BASE_URL_ENV) or None
    url_source: str | None = "--base-url" if base_url else "environment" if url else None
    if url is None:
        url = settings.profile(name).base_url
        url_source = "profile" if url else None

    policy = settings.spend_policy(name)
    source = _budget_source(settings, name, path, on_file)
    resolved = ResolvedProfile(
        name=name,
        name_source=name_source,
        settings=settings,
        config_file=path,
        base_url=url,
        base_url_source=url_source,
        policy=replace(policy, budget_from_env=source == "environment"),
        budget_source=source,
        download_dir=Path(settings.download_dir).expanduser(),
    )
    return resolved.with_key(keystore, env) if read_key else resolved


def profile_name(
    cli_profile: str | None, environ: Mapping[str, str] | None = None
) -> tuple[str, str]:
    """The profile's name, and where it came from: `--profile` > $LEADTUI_PROFILE > "default"."""
    env = os.environ if environ is None else environ
    if cli_profile:
        return cli_profile, "--profile"
    if env.get(PROFILE_ENV):
        return env[PROFILE_ENV], PROFILE_ENV
    return DEFAULT_PROFILE, "default"


def _budget_source(
    settings: Settings, name: str, path: Path, on_file: dict[str, object] | None
) -> BudgetSource:
    """Whether the budget in force is the default, the file's, or a LEADTUI_* variable's: the
    file alone is compared with the file and the variables."""
    budget = settings.spend_policy(name).spend_budget
    if on_file is None:
        try:
            on_file = read_settings_file(path)
        except ConfigError:
            return "settings file"  # read before; only the budget's origin is unknown
    try:
        file_only = Settings.model_validate(on_file)
    except ValidationError:
        return "environment"  # the file alone is not valid: the variables made it so
    if file_only.spend_policy(name).spend_budget != budget:
        return "environment"
    chosen = file_only.profile(name)
    set_on_file = chosen.spend_budget is not None or "spend_budget" in on_file
    return "settings file" if set_on_file else "default"
