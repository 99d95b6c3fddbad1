"""Start the TUI in a real terminal: the first frame first, then settings, client and key.

Before the first frame only Textual and the frame's own modules are imported; the settings
file is read with `tomllib` for what the frame shows (theme, keymap, read-only). The client
(httpx), the settings model (pydantic), the keyring and the credentials are loaded in a thread
once the frame is up (`FirstFrame.load`), then the balance fills in.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadtui.ui.app import LeadApp
from leadtui.ui.services import AppDeps, FirstFrame, Session

if TYPE_CHECKING:
    from leadtui.config.credentials import Credentials
    from leadtui.config.settings_model import SettingsModel

# The settings file and profile, as `leadtui.config.settings_model` finds them (read there in full).
_CONFIG_FILE_ENV = "LEADTUI_CONFIG_FILE"
_PROFILE_ENV = "LEADTUI_PROFILE"


def _settings_file() -> Path:
    override = os.environ.get(_CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("leadtui")) / "config.toml"


def _first_frame_values(profile: str) -> tuple[str, dict[str, str], bool]:
    """(theme, keymap, read-only) from the settings file, or the defaults when it cannot be
    read: the full reader, run next, says what is wrong with it."""
    path = _settings_file()
    try:
        # A FIFO or a device would block the first frame: only a regular file is read here.
        if not path.is_file():
            return "dark", {}, False
        import tomllib  # ~5 ms: not imported when there is no settings file

        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):  # TOMLDecodeError is a ValueError
        return "dark", {}, False
    theme = data.get("theme") if data.get("theme") in ("dark", "light") else "dark"
    raw_keymap = data.get("keymap")
    keymap = {str(k): str(v) for k, v in raw_keymap.items()} if isinstance(raw_keymap, dict) else {}
    profiles = data.get("profiles")
    chosen = profiles.get(profile) if isinstance(profiles, dict) else None
    read_only = data.get("read_only") is True or (
        isinstance(chosen, dict) and chosen.get("read_only") is True
    )
    return str(theme), keymap, read_only


def _save_settings(settings: SettingsModel) -> object:
    # pydantic-settings (which keeps LEADTUI_* overrides out of the file) only when saving.
    from leadtui.config.settings import save_settings

    return save_settings(settings)


def _load(
    ns: argparse.Namespace, demo_base_url: str | None, demo_key: str | None
) -> tuple[AppDeps, Session | None]:
    """Settings, client and key for this run (in a thread after the first frame). Raises the
    settings reader's and the client's errors, each with a message for the user."""
    # httpx imports its own command line (click, pygments: ~20 ms) whenever click is installed,
    # as it is with the sandbox extra. The TUI never runs it; with this entry httpx defines its
    # stub `main` instead. Must come before the first import of httpx (below).
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    from leadtui.config.credentials import API_KEY_ENV, BASE_URL_ENV, resolve_credentials
    from leadtui.config.secrets import KeyStore
    from leadtui.config.settings_model import ensure_state_dir, read_settings, resolve_profile_name
    from leadtui.ui.sessions import signed_in_session

    # What reading GET /me needs, imported here rather than on the UI thread after it answers.
    importlib.import_module("leadtui.api.models")
    importlib.import_module("leadtui.api.parsing")
    settings = read_settings()
    ensure_state_dir()  # the spend journal's home: refuse to start rather than fail a spend
    profile = resolve_profile_name(getattr(ns, "profile", None))
    if demo_base_url and demo_key:
        deps = AppDeps(settings, _save_settings, profile=profile, base_url=demo_base_url, demo=True)
        return deps, signed_in_session(deps, demo_key, "demo")
    base_url = (
        getattr(ns, "base_url", None)
        or os.environ.get(BASE_URL_ENV)
        or settings.profile(profile).base_url
        or ""
    )
    keystore = KeyStore()
    if os.environ.get(API_KEY_ENV, "").strip():
        # The environment key: no keyring involved.
        credentials = resolve_credentials(settings, profile)
        deps = AppDeps(settings, _save_settings, profile=profile, base_url=base_url)
        if credentials.key is None or not base_url:
            return deps, None
        return deps, signed_in_session(deps, credentials.key, "environment")
    load = None
    if base_url:

        def load() -> Credentials:
            return resolve_credentials(settings, profile, keystore=keystore)

    deps = AppDeps(
        settings,
        _save_settings,
        profile=profile,
        base_url=base_url,
        keystore=keystore,
        load_credentials=load,
    )
    return deps, None


def build_app(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> LeadApp:
    """The app for this run: the demo account, an environment key, or a saved profile."""
    profile = getattr(ns, "profile", None) or os.environ.get(_PROFILE_ENV) or "default"
    theme, keymap, read_only = _first_frame_values(profile)
    first_frame = FirstFrame(
        load=lambda: _load(ns, demo_base_url, demo_key),
        theme=theme,
        keymap=keymap,
        demo=bool(demo_base_url and demo_key),
        read_only=read_only,
    )
    return LeadApp(first_frame=first_frame)


def run(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> int:
    """Run the app until the user quits; returns the process exit code."""
    app = build_app(ns, demo_base_url, demo_key)
    app.run()
    if app.start_error is not None:
        print(f"leadtui: {app.start_error}", file=sys.stderr)
    return app.return_code or 0
