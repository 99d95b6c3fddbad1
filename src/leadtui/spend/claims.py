"""Claims on an intent: who is sending it now. One sender at a time, across windows and
processes; a claim whose process died on this machine may be taken over at once."""

from __future__ import annotations

import os
import socket
import uuid
from typing import Final

CLAIM_SECONDS: Final = 600.0
"""How long a claim holds if its owner neither settles nor releases it (nor dies visibly):
longer than any send with its retries takes."""


def new_claim_owner() -> str:
    """A claim's owner: this machine, this process, and a token unique to one send."""
    return f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex}"


def owner_died(owner: str | None) -> bool:
    """True when `owner` is a process of this machine that no longer runs."""
    if owner is None or os.name != "posix":  # elsewhere, signal 0 would not just probe
        return False
    host, _, rest = owner.partition("/")
    pid_text = rest.partition("/")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    if int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists but belongs to someone else
    return False
