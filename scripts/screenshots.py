"""Regenerate screenshots/*.svg from the in-process sandbox (the README shows them).

    .venv/bin/python scripts/screenshots.py

The sandbox starts with Demo Co's month of history (`demo_data=True`). Time is frozen
(sandbox clock and app clock), request ids and idempotency keys are fixed, so the pictures
only change when the UI does. Only the masked key is ever on screen. Nothing is written
outside `screenshots/` and a temporary directory (the spend journal).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
from textual.pilot import Pilot
from textual.widgets import Input

from leadtui.api import keys
from leadtui.api.client import LeadClient
from leadtui.config.settings import Settings
from leadtui.sandbox import problems
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.ui.frame.app import LeadApp, make_app
from leadtui.ui.frame.services import AppDeps
from leadtui.ui.model.search_draft import ItemDraft

OUT = Path(__file__).resolve().parent.parent / "screenshots"
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z
BASE_URL = "http://127.0.0.1"
FULL = "sk_demo_full"

# A step gets the pilot and an HTTP client for the sandbox's own control routes (faults).
Step = Callable[[Pilot[Any], httpx.AsyncClient], Awaitable[None]]


@dataclass(frozen=True)
class Shot:
    name: str
    key: str | None = FULL  # None: not signed in
    steps: Sequence[Step] = ()
    size: tuple[int, int] = (100, 30)
    # Modal dialogs wait inside a worker: after these steps, pause instead of waiting.
    modal: bool = False
    sandbox: dict[str, Any] = field(default_factory=dict)


async def settle(pilot: Pilot[Any], _control: httpx.AsyncClient | None = None) -> None:
    for _ in range(2):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False  # a caret caught mid-blink would change the picture
    await pilot.pause()


def press(*pressed: str) -> Step:
    async def step(pilot: Pilot[Any], _control: httpx.AsyncClient) -> None:
        await pilot.press(*pressed)
        await settle(pilot)

    return step


def press_into_modal(*pressed: str) -> Step:
    async def step(pilot: Pilot[Any], _control: httpx.AsyncClient) -> None:
        for one in pressed:
            await pilot.press(one)
            await pilot.pause()
            await pilot.pause()

    return step


async def jobs_in_every_state(pilot: Pilot[Any], control: httpx.AsyncClient) -> None:
    """The demo has ready/failed/processing/queued exports and draft/running/paused/completed
    extractions; add one stopped and one failed extraction so each state is on screen."""
    client = cast("LeadApp", pilot.app).client
    stopped = await client.extractions.create(
        {
            "categories": ["Piano teachers"],
            "countries": ["Ireland"],
            "localisations": ["Cork"],
            "enrichment_sources": ["website"],
        }
    )
    await client.extractions.stop(stopped.extractionId)
    failed = await client.extractions.create(
        {
            "categories": ["Escape rooms"],
            "countries": ["Poland"],
            "localisations": ["Kraków"],
            "enrichment_sources": ["website", "reviews"],
        }
    )
    # The sandbox's fault switch: the job fails as a real one might.
    answer = await control.post(f"/_sandbox/extractions/{failed.extractionId}/fail")
    answer.raise_for_status()


def builder_with_a_mistake(pilot: Pilot[Any], _control: httpx.AsyncClient) -> Awaitable[None]:
    """An activity name over the limit and no city: the builder explains both."""
    screen: Any = pilot.app.screen
    for section, name in (
        ("activities", "Plumbers " * 20),
        ("countries", "France"),
    ):
        screen.draft.section(section).append(ItemDraft(name=name.strip(), queryNames="plombier"))
    screen.selected = "activities.0"
    screen._draw()
    return settle(pilot)


# Open the search with the most unlocked leads (the demo's coworking search, 575 of them).
OPEN_SEARCH = press("down", "down", "enter")

SHOTS: Sequence[Shot] = (
    Shot("account"),
    Shot("searches", steps=[press("2")]),
    Shot("search-detail", steps=[press("2"), OPEN_SEARCH, press("down", "down", "right")]),
    Shot(
        "confirm-spend",
        steps=[press("2"), OPEN_SEARCH, press_into_modal("u", "enter")],
        modal=True,
    ),
    Shot("new-search-invalid", steps=[press("3"), builder_with_a_mistake]),
    Shot("jobs", steps=[jobs_in_every_state, press("4")]),
    Shot("error-key-rejected", key="sk_demo_revoked"),
    Shot("scope-missing", key="sk_demo_readonly", steps=[press("3")]),
    Shot("help", steps=[press("question_mark")]),
    Shot("describe", steps=[press("2"), press_into_modal("down", "down", "D")], modal=True),
    Shot("sign-in", key=None),
    Shot("account-80x24", size=(80, 24)),
    Shot("jobs-80x24", steps=[jobs_in_every_state, press("4")], size=(80, 24)),
)


_issued = [0]


def next_key() -> uuid.UUID:
    _issued[0] += 1
    return uuid.UUID(f"3f9a2c1b-0000-4000-8000-{_issued[0]:012d}")


def demo_app(key: str | None, journal_path: Path) -> tuple[LeadApp, httpx.ASGITransport]:
    """The app signed in with `key` on the sandbox's demo data, time frozen at NOW (what the
    README's pictures and its key table show), and the sandbox's transport."""
    config = SandboxConfig(clock=lambda: NOW, demo_data=True)
    transport = httpx.ASGITransport(app=create_app(config))

    def connect(base_url: str, api_key: str) -> LeadClient:
        return LeadClient(base_url, api_key, transport=transport, max_retries=0)

    deps = AppDeps(
        Settings(),
        save_settings=lambda settings: None,
        base_url=BASE_URL,
        clock=lambda: NOW,
        connect=connect,
        demo=True,
        journal_path=journal_path,
    )
    return make_app(deps, key=key, key_source="demo"), transport


async def shoot(shot: Shot, state_dir: Path) -> Path:
    _issued[0] = 0
    app, transport = demo_app(shot.key, state_dir / f"{shot.name}-journal.sqlite3")
    control = httpx.AsyncClient(transport=transport, base_url=BASE_URL)
    async with control, app.run_test(size=shot.size) as pilot:
        await settle(pilot)
        for step in shot.steps:
            await step(pilot, control)
        if not shot.modal:
            await settle(pilot)
        path = OUT / f"{shot.name}.svg"
        path.write_text(app.export_screenshot(title=f"leadtui — {shot.name}"), encoding="utf-8")
    return path


async def main() -> int:
    OUT.mkdir(exist_ok=True)
    # Stable pictures: one request id; idempotency keys numbered from 1 in each shot (the
    # short form is on ConfirmSpend), distinct so the sandbox takes each spend as new.
    problems.new_request_id = lambda: "req_0123456789abcdef01234567"
    keys.uuid.uuid4 = next_key  # type: ignore[attr-defined]
    written = set()
    with tempfile.TemporaryDirectory() as state_dir:
        for shot in SHOTS:
            path = await shoot(shot, Path(state_dir))
            written.add(path)
            print(path)
    for stale in sorted(set(OUT.glob("*.svg")) - written):
        stale.unlink()
        print(f"removed {stale}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
