"""Start the TUI in a real terminal: settings and credentials in, exit code out.

Only cheap work happens before the first frame: the keyring (slow to import and to read) is
read by the app in a thread after it has painted.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

# httpx imports its own command line (click, pygments: ~20 ms of start-up) whenever click is
# installed, as it is with the sandbox extra. The TUI never runs it, and with this entry httpx
# defines its stub `main` instead. Must come before the first import of httpx (below).
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

if TYPE_CHECKING:
    from leadtui.config.credentials import Credentials

from leadtui.api.errors import LeadError  # noqa: E402
from leadtui.config.credentials import API_KEY_ENV, BASE_URL_ENV, resolve_credentials  # noqa: E402
from leadtui.config.errors import ConfigError  # noqa: E402
from leadtui.config.secrets import KeyStore  # noqa: E402
from leadtui.config.settings import (  # noqa: E402
    ensure_state_dir,
    load_settings,
    resolve_profile_name,
    save_settings,
)
from leadtui.ui.app import LeadApp, make_app  # noqa: E402
from leadtui.ui.services import AppDeps  # noqa: E402


def build_app(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> LeadApp:
    """The app for this run: the demo account, an environment key, or a saved profile."""
    settings = load_settings()
    ensure_state_dir()  # the spend journal's home: refuse to start rather than fail a spend
    profile = resolve_profile_name(getattr(ns, "profile", None))
    if demo_base_url and demo_key:
        deps = AppDeps(settings, save_settings, profile=profile, base_url=demo_base_url, demo=True)
        return make_app(deps, key=demo_key, key_source="demo")
    base_url = (
        getattr(ns, "base_url", None)
        or os.environ.get(BASE_URL_ENV)
        or settings.profile(profile).base_url
        or ""
    )
    keystore = KeyStore()
    if os.environ.get(API_KEY_ENV, "").strip():
        # The environment key: no keyring involved, so it is resolved before the first frame.
        credentials = resolve_credentials(settings, profile)
        deps = AppDeps(settings, save_settings, profile=profile, base_url=base_url)
        return make_app(deps, key=credentials.key, key_source="environment")
    load = None
    if base_url:

        def load() -> Credentials:
            return resolve_credentials(settings, profile, keystore=keystore)

    deps = AppDeps(
        settings,
        save_settings,
        profile=profile,
        base_url=base_url,
        keystore=keystore,
        load_credentials=load,
    )
    return make_app(deps)


def run(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> int:
    """Run the app until the user quits; returns the process exit code."""
    try:
        app = build_app(ns, demo_base_url, demo_key)
    except ConfigError as error:
        print(f"leadtui: {error}", file=sys.stderr)
        return 2
    except LeadError as error:
        print(f"leadtui: {error.message}", file=sys.stderr)
        return 2
    app.run()
    return app.return_code or 0
