"""Regenerate screenshots/*.svg from the in-process sandbox (the README shows them).

    .venv/bin/python scripts/screenshots.py

Time is frozen (sandbox clock and app clock) so the pictures only change when the UI does.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

import httpx

from leadtui.api.client import LeadClient
from leadtui.sandbox import problems
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from leadtui.ui.app import make_app
from leadtui.ui.services import AppServices

OUT = Path(__file__).resolve().parent.parent / "screenshots"
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z
SIZE = (100, 30)

# name, demo key (None: not signed in), keys pressed before the picture
SHOTS: Sequence[tuple[str, str | None, Sequence[str]]] = (
    ("account", "sk_demo_full", ()),
    ("account-read-only-key", "sk_demo_readonly", ()),
    ("sign-in", None, ()),
    ("help", "sk_demo_full", ("question_mark",)),
    ("key-rejected", "sk_demo_revoked", ()),
    ("scope-missing", "sk_demo_readonly", ("n",)),
)


async def shoot(name: str, key: str | None, keys: Sequence[str]) -> Path:
    transport = httpx.ASGITransport(app=create_app(SandboxConfig(clock=lambda: NOW)))

    def connect(base_url: str, api_key: str) -> LeadClient:
        return LeadClient(base_url, api_key, transport=transport, max_retries=0)

    client = connect("http://127.0.0.1", key) if key else None
    services = AppServices(
        client=client,
        base_url="http://127.0.0.1",
        key_masked=client.key_masked if client else "",
        key_source="demo" if client else "",
        clock=lambda: NOW,
        connect=connect,
        demo=True,
    )
    app = make_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for pressed in keys:
            await pilot.press(pressed)
            await app.workers.wait_for_complete()
            await pilot.pause()
        path = OUT / f"{name}.svg"
        path.write_text(app.export_screenshot(title=f"leadtui — {name}"), encoding="utf-8")
    return path


async def main() -> int:
    OUT.mkdir(exist_ok=True)
    problems.new_request_id = lambda: "req_0123456789abcdef01234567"  # stable pictures
    for name, key, keys in SHOTS:
        print(await shoot(name, key, keys))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
