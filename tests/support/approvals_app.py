"""The running app as a person approving spends sees it: signed in at a sandbox over its
socket, with the Approvals screen opened once a request is announced. Shared by the end-to-end
tests of every asker (a script, an agent's tool server)."""

from __future__ import annotations

from typing import Any

from leadtui.api.client import LeadClient
from leadtui.config.settings import Settings
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.frame.app import LeadApp, make_app
from leadtui.ui.frame.services import AppDeps
from leadtui.ui.screens.approvals import ApprovalsScreen
from tests.conftest import FakeClock
from tests.ui.pilot import wait_for_screen, wait_for_text, wait_until

KEY = "sk_demo_full"
LOADED_SECONDS = 60.0
"""How long an end-to-end wait may take on a loaded machine (a demo running beside it): a
deadline that only a broken run reaches, never a pause."""


def over_socket(base_url: str) -> LeadApp:
    """The app as `make_app` builds it, signed in at the sandbox at `base_url`."""

    def connect(url: str, api_key: str) -> LeadClient:
        return LeadClient(url, api_key, max_retries=0)

    deps = AppDeps(
        settings=Settings(),
        save_settings=lambda _settings: None,
        base_url=base_url,
        clock=FakeClock(),
        connect=connect,
    )
    return make_app(deps, key=KEY, key_source="demo")


async def open_request(pilot: Any, *, seconds: float = LOADED_SECONDS) -> ApprovalsScreen:
    """Open Approvals once the request is announced; until its quote is checked and it may
    be approved. (`seconds`: how long the asker may take to ask.)"""
    await wait_for_text(pilot, "1 approval waiting", seconds=seconds)
    await pilot.press("A")
    screen = await wait_for_screen(pilot, ApprovalsScreen, seconds=seconds)
    await wait_until(
        pilot, lambda: bool(screen.rows) and screen.rows[0].approvable, seconds=seconds
    )
    await wait_for_text(pilot, "Waiting for you.", seconds=seconds)
    return screen


async def approve(pilot: Any) -> None:
    """`y` on the request, then yes in the spend confirmation it opens."""
    await pilot.press("y")
    await wait_for_screen(pilot, ConfirmSpend, seconds=LOADED_SECONDS)
    await pilot.press("y")


async def approve_in_both(one: Any, two: Any) -> None:
    """Two apps' confirmations up at once, then a yes in each: the first counts, the second
    finds the request answered."""
    await one.press("y")
    await wait_for_screen(one, ConfirmSpend, seconds=LOADED_SECONDS)
    await two.press("y")
    await wait_for_screen(two, ConfirmSpend, seconds=LOADED_SECONDS)
    await one.press("y")
    await two.press("y")
