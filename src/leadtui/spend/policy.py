"""The spend policy of a profile, applied in one place for every surface: read-only blocks
every spend; a budget lets a spend through without asking only when the server stated its
price, it is counted in credits, and it is within the budget."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leadtui.config.settings_model import SpendPolicy
from leadtui.spend.errors import ReadOnlyProfile
from leadtui.spend.quote import Quote, Unit

if TYPE_CHECKING:
    from leadtui.spend.request import SpendRequest

__all__ = ["SpendPolicy", "check_spend_allowed", "needs_confirmation"]


def check_spend_allowed(policy: SpendPolicy) -> None:
    """Raise ReadOnlyProfile when spending is switched off; surfaces may call it to grey out
    spend keys before building anything."""
    if policy.read_only:
        raise ReadOnlyProfile(
            "Spending is switched off (read_only = true in the settings or this profile). "
            "Nothing was sent."
        )


def needs_confirmation(spend: Quote | SpendRequest, policy: SpendPolicy) -> bool:
    """True unless the spend is in credits, at a price the server stated, within the budget.
    A launch (extraction quota) is always confirmed: the budget is counted in credits."""
    quote = spend if isinstance(spend, Quote) else spend.quote
    credits = quote.credits
    return (
        quote.unit is Unit.LAUNCH
        or credits is None
        or not quote.price_is_known
        or credits > policy.spend_budget
    )
