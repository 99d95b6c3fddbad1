"""The demo accounts and keys every fresh sandbox starts with (listed in README)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from leadtui.api.contract import ALL_SCOPES, READ_SCOPES, Scope


@dataclass(frozen=True)
class DemoAccount:
    id: str
    name: str
    credits: int
    subscription_status: str  # "active" or "inactive"
    access_status: str  # "active" or "suspended"
    extraction_quota: int  # launches allowed; extractions cost launches, not credits


@dataclass(frozen=True)
class DemoKey:
    secret: str
    key_id: str
    label: str
    account_id: str
    scopes: frozenset[Scope] = ALL_SCOPES
    state: str = "active"  # "active", "revoked" or "expired"


DEMO_ACCOUNTS: Final = (
    DemoAccount("acct_demo", "Demo Co", 10_000, "active", "active", 10),
    DemoAccount("acct_low", "Lowball Ltd", 5, "active", "active", 1),
    DemoAccount("acct_inactive", "Dormant GmbH", 1_000, "inactive", "active", 10),
    DemoAccount("acct_suspended", "Frozen SA", 1_000, "active", "suspended", 10),
)

DEMO_KEYS: Final = (
    DemoKey("sk_demo_full", "key_full", "all scopes", "acct_demo"),
    DemoKey("sk_demo_readonly", "key_readonly", "read scopes", "acct_demo", READ_SCOPES),
    DemoKey("sk_demo_low", "key_low", "all scopes, 5 credits", "acct_low"),
    DemoKey("sk_demo_inactive", "key_inactive", "inactive subscription", "acct_inactive"),
    DemoKey("sk_demo_suspended", "key_suspended", "data access suspended", "acct_suspended"),
    DemoKey("sk_demo_revoked", "key_revoked", "revoked", "acct_demo", state="revoked"),
    DemoKey("sk_demo_expired", "key_expired", "expired", "acct_demo", state="expired"),
)

KEYS_BY_SECRET: Final = {key.secret: key for key in DEMO_KEYS}


def describe_keys() -> list[tuple[str, str]]:
    """(key, what it does) rows, for the start-up banner."""
    names = {account.id: account.name for account in DEMO_ACCOUNTS}
    return [(key.secret, f"{names[key.account_id]} — {key.label}") for key in DEMO_KEYS]
