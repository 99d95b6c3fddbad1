"""API keys and idempotency keys: which are usable, how they are shown and made.

A key travels in an HTTP header, so it must be printable ASCII; anything else (a smart quote
from a paste, a stray newline) is refused where it enters, with a reason that names its
position and never the key nor any character of it.
"""

from __future__ import annotations

import uuid
from typing import Final

# Below this length a key is masked entirely; below the next one, only its last four show.
_MIN_LEN_TO_PARTLY_SHOW: Final = 12
_MIN_LEN_TO_SHOW_BOTH_ENDS: Final = 24
_SHOWN_EACH_SIDE: Final = 4
_FULL_MASK: Final = "••••••••"
# Far longer than any key; past this the paste was not a key (and would not fit a header).
MAX_API_KEY_CHARS: Final = 1024


def unprintable_position(text: str) -> int | None:
    """The 1-based position of the first character outside printable ASCII (space to `~`)."""
    for position, char in enumerate(text, start=1):
        if not " " <= char <= "~":
            return position
    return None


def api_key_problem(key: str) -> str | None:
    """Why `key` cannot be sent as an API key, in one line; None when it can.

    The reason names a 1-based position ("character 13 is not printable ASCII") and never
    the key or any character of it. Spaces are refused too: a bearer token has none.
    """
    if not key.strip():
        return "the key is empty"
    if len(key) > MAX_API_KEY_CHARS:
        return f"the key is {len(key)} characters long; keys have at most {MAX_API_KEY_CHARS}"
    position = unprintable_position(key)
    if position is not None:
        return f"character {position} is not printable ASCII"
    if " " in key:
        return f"character {key.index(' ') + 1} is a space"
    return None


def idempotency_key_problem(key: str) -> str | None:
    """Why `key` cannot be sent as an Idempotency-Key, in one line; None when it can.

    Printable ASCII, 1 to 128 characters (the spec's bound), without a leading or trailing
    space: HTTP trims those, so the server would see another key than the one journaled.
    """
    # Imported here: the models are not needed to show a masked key before the first frame.
    from leadtui.api.models import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN

    if len(key) < IDEMPOTENCY_KEY_MIN:
        return "the idempotency key is empty"
    if len(key) > IDEMPOTENCY_KEY_MAX:
        return f"the idempotency key has {len(key)} characters; at most {IDEMPOTENCY_KEY_MAX}"
    position = unprintable_position(key)
    if position is not None:
        return f"character {position} of the idempotency key is not printable ASCII"
    if key != key.strip(" "):
        return "the idempotency key starts or ends with a space"
    return None


def mask_key(key: str) -> str:
    """The API key as it may be shown, revealing at most 4 characters below 24.

    Under 12 characters: `••••••••`. From 12 to 23: the last four only, `…full` (a key's start
    is its type prefix, alike for every key of that type; its end tells two keys apart). From
    24 on: both ends, `sk_l…CRET`.
    """
    if len(key) < _MIN_LEN_TO_PARTLY_SHOW:
        return _FULL_MASK
    if len(key) < _MIN_LEN_TO_SHOW_BOTH_ENDS:
        return f"…{key[-_SHOWN_EACH_SIDE:]}"
    return f"{key[:_SHOWN_EACH_SIDE]}…{key[-_SHOWN_EACH_SIDE:]}"


def new_idempotency_key() -> str:
    """A fresh Idempotency-Key (a random UUID, 36 characters, within the 1–128 bound)."""
    return str(uuid.uuid4())


def short_key(key: str) -> str:
    """The first 8 characters of an idempotency key, for the spend confirmation."""
    return key[:8]
