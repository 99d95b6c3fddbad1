"""Whose money a spend is: the account the key belongs to, so a pending spend is offered and
resent only to that account (idempotency keys are per account: under another account the same
key is a new spend)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from leadtui.api.models import Identity

# What mask_key puts in place of hidden characters.
_MASK_CHARS = frozenset("•…")


@dataclass(frozen=True)
class SpendAccount:
    """The account behind a key as `GET /me` names it (the spec does not promise it), and the
    masked key (never the key): the fallback when the server names no account."""

    key_hint: str
    """The key as `mask_key` shows it, e.g. `…full`."""
    id: str | None = None
    name: str | None = None

    @classmethod
    def of(cls, identity: Identity | None, key_masked: str) -> SpendAccount:
        account = identity.account if identity is not None else None
        if account is None:
            return cls(key_masked)
        return cls(key_masked, account.id or None, account.name or None)

    def same_as(self, other: SpendAccount) -> bool:
        """The same account id when both are known, else the same masked key (so two keys of
        one account differ, and keys masked entirely, which all look alike, never match:
        refusing to offer is safe, offering to the wrong account is not)."""
        if self.id is not None and other.id is not None:
            return self.id == other.id
        shows_part = any(char not in _MASK_CHARS for char in self.key_hint)
        return shows_part and self.key_hint == other.key_hint

    @property
    def label(self) -> str:
        """How a surface names it: `Demo Co (acct_demo)`, `acct_demo` or `key …full`."""
        if self.id is not None:
            return f"{self.name} ({self.id})" if self.name else self.id
        return f"key {self.key_hint}" if self.key_hint else "an unknown account"
