"""How the app comes by its session and replaces it: a launch's load after the first frame, the
saved key read in a thread, the sign-in screen, signing out.

Each sign-in replaces `app.session` whole and bumps `app.sign_ins`, which the screens watch to
load their data again. Nothing here is imported by the first frame's paint beyond this module.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from typing import TYPE_CHECKING, Any

from leadtui.ui.frame.handle import AppHandle, app_handle
from leadtui.ui.frame.services import AppDeps, FirstFrame, Session
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.widgets.header import AppHeader

if TYPE_CHECKING:
    from pydantic import SecretStr
    from textual.app import App

    from leadtui.api.client import LeadClient
    from leadtui.config.profile import ResolvedProfile
    from leadtui.ui.screens.sign_in import SignedIn, SignInScreen


def signed_in_session(deps: AppDeps, key: str | SecretStr, key_source: str) -> Session:
    """A session with `key` at `deps.base_url`. Raises ConfigurationError for a bad base URL or
    a key that cannot be sent (saying where it is wrong, never showing it)."""
    from leadtui.api.errors import ConfigurationError
    from leadtui.ui.model.errors import key_refusal

    secret = key if isinstance(key, str) else key.get_secret_value()
    refusal = key_refusal(secret.strip())
    if refusal is not None:
        raise ConfigurationError(refusal)
    return Session(deps.connect(deps.base_url, secret), key_source)


def _sign_in_screen() -> type[SignInScreen]:
    from leadtui.ui.screens.sign_in import SignInScreen

    return SignInScreen


class SessionKeeper:
    """The app's sign-in life cycle. `start` runs once the app is mounted."""

    def __init__(self, app: App[Any], first_frame: FirstFrame | None) -> None:
        self._app = app
        self._lead: AppHandle = app_handle(app)
        self.first_frame = first_frame
        """What a launch knew before the first frame; its `load` runs once the frame is up."""

    def start(self) -> None:
        if self._lead.started:
            self._start_session()
        # Else a launch: the frame paints first; the settings, the client and the key follow.

    def first_frame_painted(self) -> None:
        if not self._lead.started:
            self._app.run_worker(self._load, thread=True, exclusive=True, group="start")

    def _load(self) -> None:
        assert self.first_frame is not None
        app = self._app
        try:
            deps, session = self.first_frame.load()
        except Exception as error:  # every failure of a launch's load ends in words, no trace
            app.call_from_thread(self._cannot_start, error)
            return
        app.call_from_thread(self._loaded, deps, session)

    def _cannot_start(self, error: BaseException) -> None:
        # Printed by the launch once the terminal is given back: one plain line, never wrapped.
        self._lead.start_error = getattr(error, "message", None) or str(error)
        self._app.exit(return_code=2)

    def _loaded(self, deps: AppDeps, session: Session | None) -> None:
        lead = self._lead
        # Start-up ran without the cyclic collector (cli/main.py); what it made lives on, so
        # it is frozen out of every later pass.
        gc.freeze()
        gc.enable()
        lead.use_deps(deps)
        for header in self._app.screen.query(AppHeader):
            header.redraw()
        lead.session = session
        if session is not None:
            lead.sign_ins += 1  # the screens load; pending spends are offered
        self._start_session()

    def _start_session(self) -> None:
        # With a client, the account screen (the first mode) loads /me itself.
        app = self._app
        if self._lead.session is not None:
            return
        if self._lead.deps.load_credentials is not None:
            # Paint first; the keyring is read in a thread.
            app.run_worker(self._load_saved_key, thread=True, exclusive=True, group="load-key")
        else:
            app.push_screen(_sign_in_screen()(), self._signed_in)

    def _load_saved_key(self) -> None:
        from leadtui.config.secrets import KeyStoreError

        app = self._app
        load_credentials = self._lead.deps.load_credentials
        assert load_credentials is not None
        try:
            credentials = load_credentials()
        except KeyStoreError as error:
            app.call_from_thread(self.sign_in, str(error))
            return
        app.call_from_thread(self._credentials_loaded, credentials)

    def _credentials_loaded(self, credentials: ResolvedProfile) -> None:
        from leadtui.api.errors import LeadError
        from leadtui.ui.model.errors import describe

        if credentials.key is None or not credentials.base_url:  # `needs_sign_in`, typed
            self.sign_in("")
            return
        try:
            client = self._lead.deps.connect(
                credentials.base_url, credentials.key.get_secret_value()
            )
        except LeadError as error:
            self.sign_in(describe(error).text)
            return
        self._use_client(client, credentials.key_source or "")

    def _use_client(self, client: LeadClient, source: str) -> None:
        lead = self._lead
        old, lead.session = lead.session, Session(client, source)
        lead.key_rejected = False
        lead.sign_ins += 1
        if old is not None and old.client is not client:
            start_worker(self._app, old.client.aclose, group="close-client")

    def _signed_in(self, result: SignedIn | None) -> None:
        lead = self._lead
        if result is None:
            if lead.session is None:
                self._app.exit(return_code=1, message="Not signed in.")
            return
        self._use_client(result.client, result.stored)
        lead.account_read(result.client, result.identity)
        if result.stored == "keyring":
            base_url = result.client.base_url
            self._app.run_worker(
                lambda: self._save_profile(base_url), thread=True, group="save-settings"
            )

    def _save_profile(self, base_url: str) -> None:
        lead = self._lead
        lead.settings = lead.settings.with_profile(lead.deps.profile, base_url=base_url)
        lead.save_settings_now()

    def signing_in(self) -> bool:
        """True while the sign-in screen is on top."""
        # Not imported yet means not on screen: no import just to ask.
        module = sys.modules.get("leadtui.ui.screens.sign_in")
        return module is not None and isinstance(self._app.screen, module.SignInScreen)

    def sign_in(self, reason: str = "") -> None:
        """Show the sign-in screen (once), with `reason` above the form."""
        if not self.signing_in():
            self._app.push_screen(_sign_in_screen()(reason), self._signed_in)

    async def sign_out(self) -> None:
        """Forget the saved key, then ask for one."""
        from leadtui.config.secrets import KeyStoreError

        app, lead = self._app, self._lead
        keystore, profile = lead.deps.keystore, lead.deps.profile
        if keystore is not None:
            try:
                await asyncio.to_thread(keystore.delete, profile)
            except KeyStoreError as error:
                app.notify(str(error), title="Sign out", severity="warning")
        lead.identity = None
        lead.credits = None
        app.push_screen(_sign_in_screen()("Signed out."), self._signed_in)
