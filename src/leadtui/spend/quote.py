"""What a spend costs, computed in one place for every surface.

The TUI's confirmation, the command line's prompt, `--max-credits`, `--dry-run` and a budget all
read the same `Quote`; none of them works out a price, a total or a balance on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from leadtui.api.contract import DEFAULT_PRICE_PER_RESULT
from leadtui.api.models import ADDITIONAL_RESULTS_MAX, Search
from leadtui.spend.intent import SpendOperation


class PriceSource(StrEnum):
    """Where a quote's price comes from, in the words every surface shows."""

    SERVER = "stated by the server"
    OBSERVED = "observed: what this account was debited per result on its last unlock"
    DEFAULT = "our default: the server states no usable price"
    QUOTA = "one launch of the account's extraction quota; no credit price is stated"


class Unit(StrEnum):
    CREDIT = "credit"
    LAUNCH = "launch"


def stated_price(value: object) -> int | None:
    """The server's price per result when it is usable: a positive integer. A missing, zero,
    negative or non-integer price is unknown (a proxy may rewrite it; we never trust it to skip
    a confirmation)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def still_locked(search: Search) -> int | None:
    """Results of `search` not unlocked yet; None when the server states no result count."""
    if search.result_count is None:
        return None
    return max(0, search.result_count - (search.unlocked_count or 0))


def plural(n: int, unit: str) -> str:
    """`1 credit`, `2 credits`, `1,000 results`, `2 launches`."""
    if n == 1:
        return f"{n:,} {unit}"
    return f"{n:,} {unit}" + ("es" if unit.endswith(("ch", "sh", "s", "x")) else "s")


@dataclass(frozen=True)
class Quote:
    """The cost of one spend: what it buys, the price and its source, the balance before and
    after. `balance` is None when the balance (credits, or launches left) is unknown."""

    operation: SpendOperation
    target: str
    """What the spend acts on: a search id (with its summary) or an extraction."""
    units: int
    """Results unlocked, or launches consumed."""
    unit: Unit
    price: int
    """Credits per result (launches: 1 launch per launch)."""
    price_source: PriceSource
    balance: int | None
    stated: object = None
    """The price as the server wrote it, usable or not (to say what it stated)."""

    @classmethod
    def unlock(cls, search: Search, results: int, balance: int | None) -> Quote:
        """Unlocking `results` results of `search` at the server's price, or our default."""
        summary = search.extra("summary")
        target = search.searchId + (f" · {summary}" if isinstance(summary, str) else "")
        return cls.unlock_at(target, results, search.price_per_result, balance)

    @classmethod
    def unlock_at(
        cls, target: str, results: int, price_per_result: object, balance: int | None
    ) -> Quote:
        """Unlocking at the price the server stated, usable or not (then our default)."""
        price = stated_price(price_per_result)
        return cls(
            operation=SpendOperation.UNLOCK,
            target=target,
            units=results,
            unit=Unit.CREDIT,
            price=DEFAULT_PRICE_PER_RESULT if price is None else price,
            price_source=PriceSource.DEFAULT if price is None else PriceSource.SERVER,
            balance=balance,
            stated=price_per_result,
        )

    @classmethod
    def launch(cls, operation: SpendOperation, target: str, launches_left: int | None) -> Quote:
        """Creating or launching an extraction: one launch of the account's quota."""
        return cls(
            operation=operation,
            target=target,
            units=1,
            unit=Unit.LAUNCH,
            price=1,
            price_source=PriceSource.QUOTA,
            balance=launches_left,
        )

    def with_stated(self, price_per_result: object) -> Quote:
        """The same unlock at the price the server states now (launches have no price)."""
        if self.unit is not Unit.CREDIT:
            return self
        return Quote.unlock_at(self.target, self.units, price_per_result, self.balance)

    def with_units(self, units: int) -> Quote:
        """The same spend at the same price and balance for `units` (a count being chosen)."""
        return replace(self, units=units)

    def with_observed(self, observed: int | None) -> Quote:
        """The price corrected by what this account was debited per result on its last unlock:
        it stands in for an unusable stated price and replaces one it exceeded (an overcharge)."""
        if self.unit is not Unit.CREDIT or observed is None or observed <= 0:
            return self
        if self.price_source is PriceSource.DEFAULT or observed > self.price:
            return replace(self, price=observed, price_source=PriceSource.OBSERVED)
        return self

    @property
    def total(self) -> int:
        return self.units * self.price

    @property
    def credits(self) -> int | None:
        """The credits this spend consumes; None when it consumes none (a launch)."""
        return self.total if self.unit is Unit.CREDIT else None

    @property
    def price_is_known(self) -> bool:
        """False when the total rests on our default price, not on one the server stated."""
        return self.price_source is not PriceSource.DEFAULT

    @property
    def balance_after(self) -> int | None:
        return None if self.balance is None else self.balance - self.total

    @property
    def shortfall(self) -> int:
        """How much the balance lacks (0 when it covers the spend or is unknown)."""
        after = self.balance_after
        return 0 if after is None or after >= 0 else -after

    def total_text(self) -> str:
        return plural(self.total, self.unit.value)

    def balance_text(self) -> str:
        """`10,000 credits → 9,995 credits`, or `unknown`."""
        unit = self.unit.value
        if self.balance is None:
            return "unknown"
        return f"{plural(self.balance, unit)} → {plural(self.balance_after or 0, unit)}"

    def to_json(self) -> dict[str, Any]:
        """The quote as the command line prints it (`--dry-run --json`, exit-10 errors)."""
        return {
            "operation": self.operation.value,
            "target": self.target,
            "units": self.units,
            "unit": self.unit.value,
            "price": self.price,
            "price_source": self.price_source.value,
            "price_is_known": self.price_is_known,
            "total": self.total,
            "balance": self.balance,
            "balance_after": self.balance_after,
        }


def affordable_results(
    search: Search, balance: int | None, price: int | None = None
) -> tuple[int, str | None]:
    """The most results of `search` one unlock can buy (what is still locked, the request limit,
    what the balance pays for at `price`: by default the search's, or ours), and why it is
    capped below what is still locked (None: it is not)."""
    locked = still_locked(search)
    most = ADDITIONAL_RESULTS_MAX if locked is None else min(locked, ADDITIONAL_RESULTS_MAX)
    reason = None
    if locked is not None and locked > ADDITIONAL_RESULTS_MAX:
        reason = f"at most {ADDITIONAL_RESULTS_MAX:,} per unlock"
    if balance is not None:
        price = Quote.unlock(search, 1, balance).price if price is None else price
        payable = max(0, balance) // price
        if payable < most:
            most = payable
            reason = f"your {plural(max(0, balance), 'credit')} pay for {payable:,}"
    return most, reason
