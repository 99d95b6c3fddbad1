"""Start the TUI in a real terminal: settings and credentials in, exit code out.

Only cheap work happens before the first frame: the keyring (slow to import and to read) is
read by the app in a thread after it has painted.
"""

from __future__ import annotations

import argparse
import os
import sys

# httpx imports its own command line (click, pygments: ~20 ms of start-up) whenever click is
# installed, as it is with the sandbox extra. The TUI never runs it, and with this entry httpx
# defines its stub `main` instead. Must come before the first import of httpx (below).
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

from leadtui.api.client import LeadClient  # noqa: E402
from leadtui.api.errors import LeadError  # noqa: E402
from leadtui.config.credentials import API_KEY_ENV, BASE_URL_ENV, resolve_credentials  # noqa: E402
from leadtui.config.secrets import KeyStore  # noqa: E402
from leadtui.config.settings import (  # noqa: E402
    Settings,
    SettingsFileError,
    load_settings,
    resolve_profile_name,
    save_settings,
)
from leadtui.ui.app import make_app  # noqa: E402
from leadtui.ui.services import AppServices  # noqa: E402


def _save(settings: Settings) -> None:
    save_settings(settings)


def build_services(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> AppServices:
    """The services for this run: the demo account, an environment key, or a saved profile."""
    settings = load_settings()
    profile = resolve_profile_name(getattr(ns, "profile", None))
    services = AppServices(client=None, settings=settings, profile=profile, save_settings=_save)
    if demo_base_url and demo_key:
        client = LeadClient(demo_base_url, demo_key)
        services.client, services.demo, services.key_source = client, True, "demo"
        services.base_url, services.key_masked = client.base_url, client.key_masked
        return services
    base_url = (
        getattr(ns, "base_url", None)
        or os.environ.get(BASE_URL_ENV)
        or settings.profile(profile).base_url
        or ""
    )
    services.base_url = base_url
    services.keystore = KeyStore()
    if os.environ.get(API_KEY_ENV, "").strip():
        # The environment key: no keyring involved, so it is resolved before the first frame.
        credentials = resolve_credentials(settings, profile)
        if base_url and credentials.key is not None:
            client = LeadClient(base_url, credentials.key)
            services.client, services.key_source = client, "environment"
            services.key_masked = client.key_masked
    elif base_url:
        keystore = services.keystore
        services.load_credentials = lambda: resolve_credentials(
            settings, profile, keystore=keystore
        )
    return services


def run(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> int:
    """Run the app until the user quits; returns the process exit code."""
    try:
        services = build_services(ns, demo_base_url, demo_key)
    except SettingsFileError as error:
        print(f"leadtui: {error}", file=sys.stderr)
        return 2
    except LeadError as error:
        print(f"leadtui: {error.message}", file=sys.stderr)
        return 2
    app = make_app(services)
    app.run()
    return app.return_code or 0
