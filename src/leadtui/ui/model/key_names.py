"""Keys named one way wherever they are listed: "shift+↑", "ctrl+d", "PgDn", "Esc", "?".

Textual-free. Takes Textual's key names ("shift+up", "question_mark", "pagedown").
"""

from __future__ import annotations

from typing import Final

_NAMES: Final[dict[str, str]] = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "space": "Space",
    "backspace": "Backspace",
    "delete": "Del",
    "insert": "Ins",
    "question_mark": "?",
    "slash": "/",
    "exclamation_mark": "!",
    "colon": ":",
    "full_stop": ".",
    "comma": ",",
    "plus": "+",
    "minus": "-",
}
_MODIFIERS: Final = ("ctrl", "alt", "shift", "meta")


def key_name(key: str) -> str:
    """One key as shown: modifiers spelled out in a fixed order, then the key's symbol."""
    *modifiers, base = key.split("+") if key != "plus" else ["plus"]
    name = base.upper() if base.startswith("f") and base[1:].isdigit() else _NAMES.get(base, base)
    ordered = [m for m in _MODIFIERS if m in modifiers]
    if "shift" in ordered and len(name) == 1 and name.isalpha():
        # shift+g is the letter G.
        ordered.remove("shift")
        name = name.upper()
    return "+".join([*ordered, name])


def keys_name(keys: list[str]) -> str:
    """Several keys of one action: "↓ j", "Home g"."""
    return " ".join(dict.fromkeys(key_name(key) for key in keys))
