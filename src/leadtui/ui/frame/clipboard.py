"""Copying to the terminal's clipboard (OSC 52) and saying so, the same way on every screen."""

from __future__ import annotations

from typing import Any

from textual.app import App


def copy_and_tell(app: App[Any], text: str, what: str) -> None:
    """Copy `text` and toast "Copied {what}". The toast is feedback on the key just pressed,
    not an event: it bypasses the app's history (Textual's own `notify`, not the app's)."""
    app.copy_to_clipboard(text)
    App.notify(app, f"Copied {what}", timeout=3, markup=False)
