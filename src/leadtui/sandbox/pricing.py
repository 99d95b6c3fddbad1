"""What the sandbox states as a search's price, and what it actually debits per result.

Both are the default price unless a test or demo changes them through `/_sandbox/pricing`: a
server that states a price it does not charge (or states none, or states `true` or `"5"`) is
what the client's cap must hold against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from leadtui.sandbox.domain.ledger import PRICE_PER_RESULT


@dataclass
class Pricing:
    stated: Any = PRICE_PER_RESULT
    """The `price_per_result` search records show (any JSON value)."""
    omit_stated: bool = False
    """True: search records carry no `price_per_result` at all."""
    charged: int = PRICE_PER_RESULT
    """Credits debited per unlocked result, whatever is stated."""
    omit_debited: bool = False
    """True: an unlock's answer does not say what it debited (`credits_debited` left out)."""

    def state_on(self, record: dict[str, Any]) -> dict[str, Any]:
        """`record` (a search) with the price this server states, or none."""
        if self.omit_stated:
            record.pop("price_per_result", None)
        else:
            record["price_per_result"] = self.stated
        return record

    def debit_on(self, record: dict[str, Any]) -> dict[str, Any]:
        """`record` (an unlock's export) with what it debited, or without when told to omit."""
        if self.omit_debited:
            record.pop("credits_debited", None)
        return record
