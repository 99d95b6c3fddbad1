"""An unexpected error stops the app with one line: never a traceback with the frames' locals,
which may hold the API key."""

from __future__ import annotations

from typing import Any

import pytest
from textual.worker import WorkerFailed

from tests.ui.pilot import wait_until


async def test_a_crash_says_one_line_and_never_prints_the_key(
    build_app: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("LEADTUI_DEBUG", raising=False)
    app = build_app("sk_demo_full")

    def crash(api_key: str) -> None:
        held = f"Bearer {api_key}"  # what a traceback with locals would print
        raise RuntimeError(f"failed after {len(held)} characters")

    async def run_until_the_crash() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: app.credits is not None)
            app.run_worker(lambda: crash("sk_demo_full"), thread=True)
            await wait_until(pilot, lambda: bool(app._exit_renderables))

    with pytest.raises(WorkerFailed):
        await run_until_the_crash()
    text = " ".join(capsys.readouterr().err.split())  # what the terminal shows on the way out
    assert "leadtui stopped on an unexpected RuntimeError" in text
    assert "sk_demo_full" not in text
    assert "Traceback" not in text
