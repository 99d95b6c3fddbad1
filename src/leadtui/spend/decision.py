"""The one spend decision every surface renders: send, ask (with the quote), or refuse (with a
code and the quote).

`judge` is the rule, a pure function of the `Facts` that `SpendGate.decide` gathers (the quote
at a fresh price and balance, the policy, what the journal knows) and of what the surface brings
(`Authorization`). A dialog, a prompt, `--dry-run`, exit codes and a tool result render it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from leadtui.spend.errors import Code, SpendBlocked
from leadtui.spend.quote import Quote, Unit, plural

if TYPE_CHECKING:
    from leadtui.config.settings import SpendPolicy
    from leadtui.spend.intent import SpendIntent

NOTHING_SENT = "Nothing was sent."
READ_ONLY = "Spending is switched off (read_only = true in the settings or this profile)."


class Verdict(StrEnum):
    SEND = "send"
    ASK = "ask"
    """A person must say yes to exactly this quote (`code` says why)."""
    REFUSE = "refuse"


# Codes that mean "a person could say yes"; unattended, they refuse with the same code.
ASK_CODES = frozenset(
    {Code.OVER_BUDGET, Code.PRICE_UNKNOWN, Code.CONFIRMATION_REQUIRED, Code.QUOTE_CHANGED}
)


class Surface(StrEnum):
    """Who spends: journaled with every spend, shown in history and `leadtui pending`."""

    APP = "app"
    CLI = "cli"
    AGENT = "agent"


class AuthorizedBy(StrEnum):
    CONFIRMATION = "confirmation"
    MAX_CREDITS = "max-credits"
    MAX_LAUNCHES = "max-launches"
    ALLOWANCE = "allowance"
    BUDGET = "budget"
    REPLAY = "replay"
    """The caller's key was used before with the same body: the first outcome, no new spend."""


@dataclass(frozen=True)
class Allowance:
    """What the user authorized in advance for one run (an agent server's `--max-credits` and
    `--max-launches`), in all: every spend under it counts from the moment it is journaled."""

    credits: int = 0
    launches: int = 0

    def less(self, spent: Allowance) -> Allowance:
        return Allowance(
            max(0, self.credits - spent.credits), max(0, self.launches - spent.launches)
        )


@dataclass(frozen=True)
class Accepted:
    """The one spend an authorization was given for: its request hash and the quote accepted."""

    request_hash: str
    quote: Quote

    def to_json(self) -> dict[str, Any]:
        return {"request_hash": self.request_hash, **self.quote.to_json()}


@dataclass(frozen=True)
class Authorization:
    """What a surface brings to the decision."""

    surface: Surface
    confirmed: bool = False
    """A person said yes to exactly this quote (a dialog, a prompt, an elicitation)."""
    ceiling: int | None = None
    """A hard cap in credits (`--max-credits`): over it refused; within it, at a known price,
    authorized."""
    launch_ceiling: int | None = None
    """The same for extraction launches (`--max-launches`)."""
    ceiling_authorizes: bool = True
    """False: the ceilings only cap and a person still says yes (a terminal without `--yes`)."""
    allowance: Allowance | None = None
    can_ask: bool = True
    """False: nobody can be asked, so what would be "ask" is "refuse" with its code."""
    accepted: Accepted | None = None
    """The exact spend and quote a yes was given for (None: the request's, when `confirmed`)."""
    limits: str | None = None
    """The journal's name for the ceilings and allowance above: every spend journaled under
    it counts against them (at its quote while pending, then at its measured debit)."""


@dataclass(frozen=True)
class Budget:
    """The profile's spend_budget: credits spendable without asking in any 24 hours."""

    limit: int
    spent: int
    """Spent without asking in the last 24 hours, by every process of the profile."""
    from_env: bool = False

    @property
    def left(self) -> int:
        return max(0, self.limit - self.spent)

    def text(self) -> str:
        where = " (set in the environment: LEADTUI_SPEND_BUDGET)" if self.from_env else ""
        if self.limit == 0:
            return f"no spend_budget: every spend is asked{where}"
        return (
            f"{plural(self.left, 'credit')} left of the spend_budget of "
            f"{plural(self.limit, 'credit')} a day{where}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "spend_budget": self.limit,
            "spent_24h": self.spent,
            "left": self.left,
            "from_env": self.from_env,
        }


@dataclass(frozen=True)
class Decision:
    """The answer for one spend: `quote` re-priced, `message` what every surface shows."""

    verdict: Verdict
    code: Code | None
    quote: Quote
    message: str
    budget: Budget
    surface: Surface
    idempotency_key: str
    authorized_by: AuthorizedBy | None = None
    pending_key: str | None = None
    """The pending identical spend's key (`pending_same_spend`)."""
    replay: SpendIntent | None = None
    """The journaled spend the caller's key names (same body): its outcome is the answer."""
    accepted: Accepted | None = None
    """What was authorized, when `quote_changed`: the quote it now costs is `quote`."""

    @property
    def sends(self) -> bool:
        return self.verdict is Verdict.SEND

    @property
    def asks(self) -> bool:
        return self.verdict is Verdict.ASK

    def refusal_details(self) -> dict[str, Any]:
        """What an error about this decision carries beside its words: the quote, the decision
        and, when the price rose after a yes (`quote_changed`), what was authorized."""
        details: dict[str, Any] = {"quote": self.quote.to_json(), "decision": self.to_json()}
        if self.accepted is not None:
            details["accepted"] = self.accepted.to_json()
        return details

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "code": None if self.code is None else self.code.value,
            "message": self.message,
            "authorized_by": None if self.authorized_by is None else self.authorized_by.value,
            "surface": self.surface.value,
            "idempotency_key": self.idempotency_key,
            "pending_key": self.pending_key,
            "quote": self.quote.to_json(),
            "budget": self.budget.to_json(),
            "accepted": None if self.accepted is None else self.accepted.to_json(),
        }


@dataclass(frozen=True)
class Facts:
    """What the journal and the server say, gathered by `SpendGate.decide`."""

    quote: Quote
    policy: SpendPolicy
    budget: Budget
    idempotency_key: str
    pending: SpendIntent | None = None
    """A pending spend with the same operation, target and body (another key)."""
    same_key: SpendIntent | None = None
    """The journaled spend under the caller's key, if any."""
    same_key_same_body: bool = False
    accepted: Accepted | None = None
    """What this spend was authorized at, to hold it to (see `Authorization.accepted`)."""
    spent: Allowance = Allowance()
    """Taken already under the authorization's limits (its ceilings and allowance)."""
    request_hash: str = ""


def judge(facts: Facts, authorization: Authorization) -> Decision:
    """The decision for one spend, from what is known; sends nothing, reads nothing."""
    quote, auth = facts.quote, authorization

    def decided(verdict: Verdict, code: Code | None, message: str, **kw: Any) -> Decision:
        if verdict is Verdict.ASK and not auth.can_ask:
            verdict = Verdict.REFUSE
            message = f"{message} Nobody can be asked here. {NOTHING_SENT}"
        budget, key = facts.budget, facts.idempotency_key
        return Decision(verdict, code, quote, message, budget, auth.surface, key, **kw)

    def refuse(code: Code, message: str, **kw: Any) -> Decision:
        return decided(Verdict.REFUSE, code, f"{message} {NOTHING_SENT}", **kw)

    if facts.policy.read_only:
        return refuse(Code.READ_ONLY, READ_ONLY)
    if facts.same_key is not None:
        if not facts.same_key_same_body:
            return refuse(
                Code.IDEMPOTENCY_CONFLICT,
                f"The idempotency key {facts.idempotency_key} was already used for another "
                f"spend ({facts.same_key.operation.value}); one key names one spend. "
                "Choose a new key for this one.",
            )
        return decided(
            Verdict.SEND,
            None,
            f"The idempotency key {facts.idempotency_key} names a spend already journaled "
            "with this same request: its first outcome is the answer, never a second debit.",
            authorized_by=AuthorizedBy.REPLAY,
            replay=facts.same_key,
        )
    if facts.pending is not None:
        key = facts.pending.idempotency_key
        return refuse(
            Code.PENDING_SAME_SPEND,
            f"An identical spend is still pending under the idempotency key {key} (its outcome "
            f"is unknown); sending another could debit twice. Resend that one with "
            f"`leadtui pending resend {key}` (never a second debit), or discard it first.",
            pending_key=key,
        )
    # A balance read fresh that cannot cover the spend: refused in the words of the server's 409.
    if quote.shortfall and quote.unit is Unit.LAUNCH:
        return refuse(
            Code.NO_LAUNCHES_LEFT, "The account's extraction quota is used up (no launches left)."
        )
    if quote.shortfall:
        return refuse(
            Code.INSUFFICIENT_CREDITS,
            f"Unlocking {quote.units} results costs {quote.total} credits; the account has "
            f"{quote.balance}.",
        )
    over = _over_ceiling(quote, auth, facts.spent)
    if over is not None:
        return refuse(Code.OVER_CEILING, over)
    accepted = facts.accepted
    if accepted is not None and accepted.request_hash != facts.request_hash:
        return refuse(
            Code.CONFIRMATION_REQUIRED,
            "The authorization was given for another request (another target or body); "
            "a yes covers exactly the spend it was shown.",
        )
    if accepted is not None and (
        quote.price > accepted.quote.price or quote.total > accepted.quote.total
    ):
        return decided(
            Verdict.ASK,
            Code.QUOTE_CHANGED,
            f"The price changed after it was authorized: {_quote_words(accepted.quote)} was "
            f"authorized, it now costs {_quote_words(quote)}.",
            accepted=accepted,
        )
    if auth.confirmed:
        return decided(
            Verdict.SEND, None, "Confirmed by the user.", authorized_by=AuthorizedBy.CONFIRMATION
        )
    if quote.unit is Unit.CREDIT and not quote.price_is_known:
        return decided(Verdict.ASK, Code.PRICE_UNKNOWN, _price_unknown(quote))
    allowance = None if auth.allowance is None else auth.allowance.less(facts.spent)
    covered = _covered_by(quote, auth, facts.budget, allowance)
    if covered is not None:
        return decided(Verdict.SEND, None, covered[1], authorized_by=covered[0])
    return decided(Verdict.ASK, *_uncovered(quote, facts.budget, allowance))


def _quote_words(quote: Quote) -> str:
    if quote.unit is Unit.LAUNCH:
        return quote.total_text()
    return f"{quote.total_text()} ({plural(quote.price, 'credit')} per result)"


def _over_ceiling(quote: Quote, auth: Authorization, spent: Allowance) -> str | None:
    """A ceiling counts every spend journaled under it, this one included."""
    if quote.unit is Unit.CREDIT:
        ceiling, taken, flag = auth.ceiling, spent.credits, "--max-credits"
    else:
        ceiling, taken, flag = auth.launch_ceiling, spent.launches, "--max-launches"
    if ceiling is None or taken + quote.total <= ceiling:
        return None
    before = f" ({plural(taken, quote.unit.value)} of it taken already)" if taken else ""
    return (
        f"This spend costs {quote.total_text()}, over the ceiling of "
        f"{plural(ceiling, quote.unit.value)}{before} ({flag} {ceiling})."
    )


def _price_unknown(quote: Quote) -> str:
    shown = "no price" if quote.stated is None else f"a price of {quote.stated!r}"
    return (
        f"The server states {shown}, not a positive whole number, and this account has no "
        f"settled unlock to observe one from: {quote.total_text()} is an estimate at "
        f"{plural(quote.price, 'credit')} per result. No budget or ceiling covers an "
        "estimate; a person must confirm it."
    )


def _covered_by(
    quote: Quote, auth: Authorization, budget: Budget, allowance: Allowance | None
) -> tuple[AuthorizedBy, str] | None:
    """What the user set in advance that covers the spend (`allowance`: what is left of it)."""
    launch = quote.unit is Unit.LAUNCH
    ceiling = auth.launch_ceiling if launch else auth.ceiling
    if ceiling is not None and auth.ceiling_authorizes:
        by = AuthorizedBy.MAX_LAUNCHES if launch else AuthorizedBy.MAX_CREDITS
        return by, f"Within --{by.value}."
    if allowance is not None:
        left = allowance.launches if launch else allowance.credits
        if quote.total <= left:
            what = "launches" if launch else "credits"
            return AuthorizedBy.ALLOWANCE, f"Within the {what} allowed."
    if not launch and budget.limit > 0 and quote.total <= budget.left:
        return AuthorizedBy.BUDGET, f"Within the spend_budget: {budget.text()} before this spend."
    return None


def _uncovered(quote: Quote, budget: Budget, allowance: Allowance | None) -> tuple[Code, str]:
    """Why a person must say yes when nothing set in advance covers the spend."""
    total = quote.total_text()
    if quote.unit is Unit.LAUNCH and allowance is not None:
        left = plural(allowance.launches, "launch")
        return (
            Code.OVER_BUDGET,
            f"This spend consumes {total}; the launches allowed in advance have {left} left.",
        )
    if quote.unit is Unit.LAUNCH:
        return (
            Code.CONFIRMATION_REQUIRED,
            f"This spend consumes {total} of the account's extraction quota; nothing set in "
            "advance covers it.",
        )
    if budget.limit > 0 or allowance is not None:
        allowed = "" if allowance is None else f"; allowed in advance: {allowance.credits:,}"
        return (
            Code.OVER_BUDGET,
            f"This spend costs {total}, over what may be spent without asking: "
            f"{budget.text()}{allowed}.",
        )
    return (
        Code.CONFIRMATION_REQUIRED,
        f"This spend costs {total}; nothing set in advance covers it (no spend_budget, no "
        "ceiling).",
    )


class SpendRefused(SpendBlocked):
    """The spend decision was not "send": `decision` (when the refusal came from one) says why,
    with its code and quote, in the words every surface shows. Nothing was sent."""

    title = "Not sent"

    def __init__(self, message: str, decision: Decision | None = None) -> None:
        super().__init__(message)
        self.decision = decision

    @property
    def asks_again(self) -> Decision | None:
        """The price rose after the yes (nothing was sent): the decision to ask about anew.
        None for any other refusal."""
        again = self.decision
        if again is None or again.code is not Code.QUOTE_CHANGED or not again.asks:
            return None
        return again


class ReadOnlyProfile(SpendRefused):
    title = "Spending is switched off"
    code = Code.READ_ONLY


class ConfirmationRequired(SpendRefused):
    """Nothing set in advance covers the spend, and nobody confirmed it."""

    title = "Confirmation required"


def refusal(decision: Decision) -> SpendRefused:
    """The exception for a decision that is not "send" (its kind follows its code)."""
    if decision.code is Code.READ_ONLY:
        return ReadOnlyProfile(decision.message, decision)
    if decision.code in ASK_CODES:
        return ConfirmationRequired(decision.message, decision)
    return SpendRefused(decision.message, decision)
