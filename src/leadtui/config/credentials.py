"""Which server and key to use: LEADTUI_* environment first, then the saved profile."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from pydantic import SecretStr

from leadtui.api.keys import api_key_problem, mask_key
from leadtui.config.errors import InvalidApiKey
from leadtui.config.secrets import KeySource, KeyStore
from leadtui.config.settings_model import SettingsModel, resolve_profile_name

API_KEY_ENV: Final = "LEADTUI_API_KEY"
BASE_URL_ENV: Final = "LEADTUI_BASE_URL"


@dataclass(frozen=True)
class Credentials:
    """What the app signs in with. `key` is None (or `base_url` is None) → needs sign-in."""

    profile: str
    base_url: str | None
    key: SecretStr | None = field(repr=False)
    key_source: KeySource | None
    base_url_source: str | None = None
    """"environment" or "profile"; None when there is no base URL."""

    @property
    def key_masked(self) -> str | None:
        return mask_key(self.key.get_secret_value()) if self.key is not None else None

    @property
    def needs_sign_in(self) -> bool:
        return self.key is None or not self.base_url


def resolve_credentials(
    settings: SettingsModel,
    profile: str | None = None,
    *,
    keystore: KeyStore | None = None,
    environ: Mapping[str, str] | None = None,
) -> Credentials:
    """LEADTUI_BASE_URL / LEADTUI_API_KEY when set, else the profile's base URL and saved key.

    `profile` is the --profile value (None: $LEADTUI_PROFILE or "default"). Reading the keyring
    can take seconds (bounded): call this off the UI thread. Raises KeyStoreError when the
    keyring fails and no other key is available, InvalidApiKey when LEADTUI_API_KEY could never
    be sent (UnusableStoredKey, both, for such a saved key).
    """
    env = os.environ if environ is None else environ
    name = resolve_profile_name(profile, env)

    base_url: str | None = env.get(BASE_URL_ENV) or None
    base_url_source: str | None = "environment" if base_url else None
    if base_url is None:
        base_url = settings.profile(name).base_url
        base_url_source = "profile" if base_url else None

    env_key = env.get(API_KEY_ENV, "").strip()
    if env_key:
        problem = api_key_problem(env_key)
        if problem is not None:
            raise InvalidApiKey(API_KEY_ENV, f"{problem}; nothing was sent")
        return Credentials(
            name, base_url, SecretStr(env_key), KeySource.ENVIRONMENT, base_url_source
        )
    stored = (keystore or KeyStore()).get(name)
    if stored is None:
        return Credentials(name, base_url, None, None, base_url_source)
    return Credentials(name, base_url, stored.key, stored.source, base_url_source)
