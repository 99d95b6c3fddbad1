"""API keys and idempotency keys: how they are shown and made."""

from __future__ import annotations

import uuid

# Below this length, showing a prefix and a suffix would reveal most of the key.
_MIN_LEN_TO_PARTLY_SHOW = 12
_SHOWN_EACH_SIDE = 4
_FULL_MASK = "••••••••"


def mask_key(key: str) -> str:
    """The API key as it may be shown: `sk_d…full`; short keys are masked entirely."""
    if len(key) < _MIN_LEN_TO_PARTLY_SHOW:
        return _FULL_MASK
    return f"{key[:_SHOWN_EACH_SIDE]}…{key[-_SHOWN_EACH_SIDE:]}"


def new_idempotency_key() -> str:
    """A fresh Idempotency-Key (a random UUID, 36 characters, within the 1–128 bound)."""
    return str(uuid.uuid4())


def short_key(key: str) -> str:
    """The first 8 characters of an idempotency key, for the spend confirmation."""
    return key[:8]


_IDEMPOTENCY_KEY_MAX = 128


def idempotency_key_problem(key: str) -> str | None:
    """None when `key` is a usable Idempotency-Key (printable ASCII, 1 to 128 characters), else
    a one-line reason naming the 1-based position of the first bad character."""
    if not key:
        return "the idempotency key is empty"
    if len(key) > _IDEMPOTENCY_KEY_MAX:
        return f"the idempotency key has {len(key)} characters; at most {_IDEMPOTENCY_KEY_MAX}"
    for position, char in enumerate(key, start=1):
        if not " " <= char <= "~":
            return f"character {position} of the idempotency key is not printable ASCII"
    return None
