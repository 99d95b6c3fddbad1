"""Start the TUI in a real terminal: the first frame first, then settings, client and key.

Before the first frame only Textual and the frame's own modules are imported; the settings
file is read with `tomllib` for how the frame looks (theme, keymap: `config/looks.py`). The
profile (`config/profile.py`, with pydantic), the client (httpx) and the keyring are loaded in
a thread once the frame is up (`FirstFrame.load`), then the balance fills in.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from leadtui.config.looks import first_frame_looks
from leadtui.config.variables import API_KEY_ENV
from leadtui.ui.frame.app import LeadApp
from leadtui.ui.frame.services import AppDeps, FirstFrame, Session

if TYPE_CHECKING:
    from leadtui.config.profile import ResolvedProfile
    from leadtui.config.secrets import KeyStore
    from leadtui.config.settings import Settings


def _save_settings(settings: Settings) -> object:
    # pydantic-settings (which keeps LEADTUI_* overrides out of the file) only when saving.
    from leadtui.config.settings import save_settings

    return save_settings(settings)


def _load(
    ns: argparse.Namespace, demo_base_url: str | None, demo_key: str | None
) -> tuple[AppDeps, Session | None]:
    """Settings, client and key for this run (in a thread after the first frame). Raises the
    resolver's and the client's errors, each with a message for the user."""
    # httpx imports its own command line (click, pygments: ~20 ms) whenever click is installed,
    # as it is with the sandbox extra. The TUI never runs it; with this entry httpx defines its
    # stub `main` instead. Must come before the first import of httpx (below).
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    from leadtui.config.files import ensure_private_dir
    from leadtui.config.profile import resolve_profile
    from leadtui.config.secrets import KeyStore
    from leadtui.config.settings import state_dir
    from leadtui.ui.frame.sessions import signed_in_session

    # What reading GET /me needs, imported here rather than on the UI thread after it answers.
    importlib.import_module("leadtui.api.models")
    importlib.import_module("leadtui.api.parsing")
    demo = bool(demo_base_url and demo_key)
    resolved = resolve_profile(
        getattr(ns, "profile", None),
        base_url=demo_base_url or getattr(ns, "base_url", None),
        read_key=False,
        # The demo signs in to its own sandbox: no saved profile is at stake.
        must_exist=not demo,
    )
    # The spend journal's home: refuse to start rather than fail a spend.
    ensure_private_dir(state_dir())
    if demo_base_url and demo_key:
        deps = _deps(resolved, demo=True)
        return deps, signed_in_session(deps, demo_key, "demo")
    if os.environ.get(API_KEY_ENV, "").strip():
        # The environment key: no keyring involved.
        signed = resolved.with_key()
        deps = _deps(resolved)
        if signed.key is None or not signed.base_url:
            return deps, None
        return deps, signed_in_session(deps, signed.key, "environment")
    keystore = KeyStore()

    def load() -> ResolvedProfile:
        return resolved.with_key(keystore)

    return _deps(resolved, keystore=keystore, load=load if resolved.base_url else None), None


def _deps(
    resolved: ResolvedProfile,
    *,
    demo: bool = False,
    keystore: KeyStore | None = None,
    load: Callable[[], ResolvedProfile] | None = None,
) -> AppDeps:
    return AppDeps(
        resolved.settings,
        _save_settings,
        profile=resolved.name,
        base_url=resolved.base_url or "",
        keystore=keystore,
        load_credentials=load,
        demo=demo,
    )


def build_app(
    ns: argparse.Namespace, demo_base_url: str | None = None, demo_key: str | None = None
) -> LeadApp:
    """The app for this run: the demo account, an environment key, or a saved profile."""
    looks = first_frame_looks()
    first_frame = FirstFrame(
        load=lambda: _load(ns, demo_base_url, demo_key),
        theme=looks.theme,
        keymap=looks.keymap,
        demo=bool(demo_base_url and demo_key),
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
