"""Read-only, the part of a profile's spend policy a surface may check before building a spend
(to grey out its spend keys); the rest of the policy is applied by the spend decision."""

from __future__ import annotations

from leadtui.config.settings import SpendPolicy
from leadtui.spend.errors import ReadOnlyProfile

__all__ = ["SpendPolicy", "check_spend_allowed"]


def check_spend_allowed(policy: SpendPolicy) -> None:
    """Raise ReadOnlyProfile when spending is switched off; surfaces may call it to grey out
    spend keys before building anything."""
    if policy.read_only:
        raise ReadOnlyProfile(
            "Spending is switched off (read_only = true in the settings or this profile). "
            "Nothing was sent."
        )
