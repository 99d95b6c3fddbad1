"""Keys are named one way in help and the palette."""

from __future__ import annotations

import pytest

from leadtui.ui.model.key_names import key_name, keys_name


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("shift+up", "shift+↑"),
        ("shift+down", "shift+↓"),
        ("ctrl+d", "ctrl+d"),
        ("ctrl+shift+left", "ctrl+shift+←"),
        ("question_mark", "?"),
        ("slash", "/"),
        ("pagedown", "PgDn"),
        ("escape", "Esc"),
        ("f1", "F1"),
        ("G", "G"),
        ("shift+g", "G"),
        ("plus", "+"),
    ],
)
def test_key_names(key: str, shown: str) -> None:
    assert key_name(key) == shown


def test_several_keys_of_one_action() -> None:
    assert keys_name(["down", "j"]) == "↓ j"
    assert keys_name(["question_mark", "f1"]) == "? F1"
