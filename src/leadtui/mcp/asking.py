"""How this server asks the user about a spend: one function, `ask`, and what came of it.

The question is a form (MCP elicitation) whose message shows the quote; only an accepted form
that says yes authorizes the spend. Declined, cancelled, timed out or failed: nothing is sent.
On the newest protocol the question travels in the tool's result (the SDK's `Elicit` marker,
answered when the client calls again, and only for the same words); on older ones it is asked
here, within `McpDeps.ask_seconds`. A client that cannot ask, when the user opted in, asks
the running app instead (`approving.py`): its yes comes back as an `Answer` with the spend
approved.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

import anyio
from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
)
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field, ValidationError

from leadtui.spend.decision import Decision, Verdict
from leadtui.spend.quote import Quote, Unit, plural

if TYPE_CHECKING:
    from leadtui.spend.approval_wait import Approved

log = logging.getLogger(__name__)

# The first protocol revision where a question rides in the tool's result (input_required).
_QUESTIONS_IN_RESULTS: Final = "2026-07-28"


class SpendConsent(BaseModel):
    """The form the user answers."""

    confirm: bool = Field(
        title="Spend as quoted",
        description="Yes sends this spend exactly as quoted; no sends nothing.",
    )


class Asked(StrEnum):
    """What came of asking."""

    YES = "yes"
    NO = "no"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"
    FAILED = "failed"
    NOT_ASKED = "not_asked"
    """Nothing needed asking (the decision is send or refuse), or this is a dry run."""
    CANNOT_ASK = "cannot_ask"
    """The client declared no way to ask its user (no form elicitation)."""


@dataclass(frozen=True)
class Answer:
    asked: Asked
    approved: Approved | None = None
    """A yes given in the running app: the spend to send, exactly (perhaps quoted again)."""

    @property
    def given(self) -> bool:
        return self.asked is Asked.YES


def can_ask(ctx: Context[Any, Any]) -> bool:
    """The client declared form elicitation (a bare `elicitation: {}` counts as forms)."""
    capabilities = ctx.client_capabilities
    elicitation = None if capabilities is None else capabilities.elicitation
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def answered_before_the_call(ctx: Context[Any, Any]) -> bool:
    """True on a protocol whose questions ride in results: the answer came with this call,
    so what the call reads now is read after the user's yes."""
    version = ctx.protocol_version
    # Protocol versions are ISO dates: they compare as text.
    return version is not None and version >= _QUESTIONS_IN_RESULTS


def balance_text(quote: Quote) -> str:
    """`10,000 credits → 9,995 credits`, or `unknown`."""
    unit = quote.unit.value
    if quote.balance is None:
        return "unknown"
    return f"{plural(quote.balance, unit)} → {plural(quote.balance_after or 0, unit)}"


def question(decision: Decision) -> str:
    """The form's message: the quote in words. Made from the quote alone, so the same spend
    asks the same question (an answer counts only for the words it answered)."""
    quote = decision.quote
    if quote.unit is Unit.CREDIT:
        what = (
            f"Unlock {plural(quote.units, 'result')} of search {quote.target} at "
            f"{plural(quote.price, 'credit')} per result ({quote.price_source.value})"
        )
        left = "Balance"
    else:
        what = f"{quote.operation.value}: {quote.target}"
        left = "Launches left"
    return (
        f"An AI agent asks to spend {quote.total_text()} through leadtui.\n"
        f"Operation: {what}.\n"
        f"Cost: {quote.total_text()}.\n"
        f"{left}: {balance_text(quote)}.\n"
        f"Why you are asked: {decision.message}\n"
        "Accept and confirm to send it; anything else sends nothing."
    )


def answer_of(result: Any) -> Answer:
    """What asking came to, as the tool receives it: the user's form, or a plain `Answer`
    (which the SDK wraps as accepted: it is read back here, never taken for a yes)."""
    if isinstance(result, AcceptedElicitation):
        data = result.data
        if isinstance(data, SpendConsent):
            return Answer(Asked.YES if data.confirm else Asked.NO)
        if isinstance(data, Answer):
            return data
        return Answer(Asked.FAILED)
    if isinstance(result, DeclinedElicitation):
        return Answer(Asked.DECLINED)
    if isinstance(result, CancelledElicitation):
        return Answer(Asked.CANCELLED)
    return Answer(Asked.FAILED)


async def ask(
    ctx: Context[Any, Any],
    decision: Decision,
    *,
    dry_run: bool,
    seconds: float,
    in_app: Callable[[], Awaitable[Answer]] | None = None,
) -> Elicit[SpendConsent] | Answer:
    """Ask the user about `decision` when it says ask: in this client when it can; else in the
    running app when the user opted in (`in_app`); else say why not."""
    if dry_run or decision.verdict is not Verdict.ASK:
        return Answer(Asked.NOT_ASKED)
    if not can_ask(ctx):
        return Answer(Asked.CANNOT_ASK) if in_app is None else await in_app()
    if answered_before_the_call(ctx):
        return Elicit(question(decision), SpendConsent)
    try:
        with anyio.fail_after(seconds):
            result = await ctx.elicit(question(decision), SpendConsent)
    except TimeoutError:
        return Answer(Asked.TIMED_OUT)
    except (MCPError, ValueError, ValidationError) as exc:
        log.info("asking the user failed (%s): nothing is sent", type(exc).__name__)
        return Answer(Asked.FAILED)
    return answer_of(result)
