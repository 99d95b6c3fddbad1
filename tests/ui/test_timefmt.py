"""Ages read naturally: seconds, minutes, hours, then days past two days."""

from __future__ import annotations

import pytest

from leadtui.ui.model.timefmt import ago


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-5, "just now"),
        (0.4, "just now"),
        (12.9, "12s ago"),
        (185, "3 min ago"),
        (2 * 3600 + 5, "2 h ago"),
        (47 * 3600, "47 h ago"),
        (146 * 3600, "6 d ago"),
    ],
)
def test_ago(seconds: float, text: str) -> None:
    assert ago(seconds) == text
