"""Sign-in: a server URL and a masked key, checked with GET /me before anything is saved."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from pydantic import SecretStr
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError, Unauthorized
from leadtui.api.models import Identity
from leadtui.config.secrets import KeyStoreError, NoKeyringAvailable
from leadtui.ui.frame.handle import app_handle
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.errors import describe, key_refusal
from leadtui.ui.widgets.key_footer import KeyFooter
from leadtui.ui.widgets.text_fields import TextField


class KeyInput(Input):
    """The masked API key field. Its messages never show the key in a repr (TEXTUAL_LOG,
    tracebacks): the same messages as `Input`, with the value redacted."""

    class Changed(Input.Changed, namespace="input"):
        def __rich_repr__(self) -> Iterator[tuple[str, str]]:
            yield "value", "<redacted>"

        def __repr__(self) -> str:
            return "KeyInput.Changed(value=<redacted>)"

    class Submitted(Input.Submitted, namespace="input"):
        def __rich_repr__(self) -> Iterator[tuple[str, str]]:
            yield "value", "<redacted>"

        def __repr__(self) -> str:
            return "KeyInput.Submitted(value=<redacted>)"

    def __init__(self, *, id: str) -> None:
        super().__init__(password=True, placeholder="sk_…", id=id)

    def __rich_repr__(self) -> Iterator[tuple[str, str]]:
        yield "id", self.id or ""


@dataclass(frozen=True)
class SignedIn:
    """The result of the sign-in screen: a checked client and where its key went."""

    client: LeadClient
    identity: Identity
    stored: str  # "keyring", or "this session only"


class SignInScreen(Screen[SignedIn | None]):
    """Typed by its result: `SignedIn`, or None when the user gives up (escape)."""

    CSS_PATH = stylesheet("sign_in")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="sign_in.cancel"),
    ]

    def __init__(self, reason: str = "") -> None:
        super().__init__()
        self._reason = reason
        # A checked client whose key could not be saved: usable for this session only.
        self._unsaved: tuple[LeadClient, Identity] | None = None

    def _server(self) -> str:
        """The server to sign in to: the current session's, else the configured one."""
        session = app_handle(self).session
        return session.client.base_url if session is not None else app_handle(self).deps.base_url

    def compose(self) -> ComposeResult:
        with Vertical(id="sign-in-box") as box:
            box.border_title = "Sign in to the Lead Data API"
            if self._reason:
                yield Static(self._reason, id="sign-in-reason")
            yield Label("Server URL: https://, or http:// to this machine (without /api/v1)")
            yield TextField(
                self._server(),
                what="the server URL",
                placeholder="https://api.example.com",
                id="base-url",
            )
            yield Label("API key (created on the service's account page)")
            yield KeyInput(id="api-key")
            yield Static(id="sign-in-status")
            with Horizontal(id="sign-in-buttons"):
                yield Button("Check and save", variant="primary", id="sign-in")
                yield Button("Use for this session only", id="session-only")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#session-only").display = False
        field = "#api-key" if self._server() else "#base-url"
        self.query_one(field, Input).focus()

    @on(Input.Submitted, "#base-url")
    def _url_entered(self) -> None:
        self.query_one("#api-key", Input).focus()

    @on(Input.Submitted, "#api-key")
    @on(Button.Pressed, "#sign-in")
    def _submit(self) -> None:
        url = self.query_one("#base-url", Input).value.strip()
        field = self.query_one("#api-key", KeyInput)
        key = field.value.strip()
        if not url or not key:
            self._say("Enter the server URL and the API key.", error=True)
            return
        refusal = key_refusal(key)
        if refusal is not None:
            self._say(refusal, error=True)
            return
        # The field is cleared once read: the key lives on only as a SecretStr.
        field.value = ""
        self.check_and_save(url, SecretStr(key))

    @on(Button.Pressed, "#session-only")
    def _session_only(self) -> None:
        if self._unsaved is not None:
            client, identity = self._unsaved
            self.dismiss(SignedIn(client, identity, "this session only"))

    def _say(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#sign-in-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @work(exclusive=True, group="sign-in", description="check and save the key")
    async def check_and_save(self, url: str, key: SecretStr) -> None:
        """GET /me with the key; only a key that works is saved (keyring off the UI thread)."""
        self.query_one("#session-only").display = False
        self._say("Checking the key…")
        try:
            client = app_handle(self).deps.connect(url, key.get_secret_value())
        except LeadError as error:
            self._say(describe(error).text, error=True)
            return
        try:
            identity = await client.me()
        except LeadError as error:
            await client.aclose()
            report = describe(error)
            text = (
                "This key was rejected: it is missing, expired or revoked."
                if isinstance(error, Unauthorized)
                else f"{report.title}: {report.text}"
            )
            self._say(f"{text}\n{report.meta}".strip(), error=True)
            return
        keystore = app_handle(self).deps.keystore
        if keystore is None:
            self.dismiss(SignedIn(client, identity, "this session only"))
            return
        self._say("Key accepted. Saving it in the OS keyring…")
        profile = app_handle(self).deps.profile
        try:
            await asyncio.to_thread(keystore.store, profile, key)
        except NoKeyringAvailable as error:
            self._keep_unsaved(client, identity, str(error))
        except KeyStoreError as error:
            self._keep_unsaved(client, identity, f"The key could not be saved: {error}")
        else:
            self.dismiss(SignedIn(client, identity, "keyring"))

    def _keep_unsaved(self, client: LeadClient, identity: Identity, why: str) -> None:
        self._unsaved = (client, identity)
        self._say(f"The key works, but was not saved. {why}", error=True)
        button = self.query_one("#session-only", Button)
        button.display = True
        button.focus()
