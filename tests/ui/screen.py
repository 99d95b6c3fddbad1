"""Read what a user would see: the current screen as plain text lines."""

from __future__ import annotations

from typing import Any


def screen_text(app: Any) -> str:
    """Every row of the terminal, as rendered (modals included), right-stripped."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
