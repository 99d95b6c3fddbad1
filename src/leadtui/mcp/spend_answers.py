"""The spend decision as an agent reads it: what was sent (`SpendOut`), or why nothing was
(`refused`, `declined`, `outcome_unknown`), each with the quote. The running app's refusals
are `approving.py`'s."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, Final

from pydantic import BaseModel, Field

from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.guidance import INVALID_REQUEST
from leadtui.config.errors import StateDirError
from leadtui.mcp.asking import Asked
from leadtui.mcp.results import ToolFailure, from_lead_error
from leadtui.spend.decision import ASK_CODES, Decision, SpendRefused
from leadtui.spend.errors import Code, JournalError, SpendBlocked, SpendOutcomeUnknown
from leadtui.spend.quote import Quote, Unit

AUTHORIZATION_REQUIRED: Final = "authorization_required"
AUTHORIZATION_DECLINED: Final = "authorization_declined"


class Overcharge(BaseModel):
    """The server debited more than the spend was quoted at."""

    quoted: int = Field(description="Credits the spend was quoted at.")
    debited: int = Field(description="Credits it really debited.")
    request_id: str | None = Field(description="The request id of the spend's answer.")


class SpendOut(BaseModel):
    sent: bool = Field(description="True when this call sent the spend (or replayed one).")
    dry_run: bool
    replayed: bool = Field(
        default=False, description="The idempotency_key named an earlier spend: its outcome."
    )
    idempotency_key: str
    quote: dict[str, Any] = Field(description="What it costs: units, price, total, balance.")
    decision: dict[str, Any] = Field(description="The spend decision: verdict, code, message.")
    record: dict[str, Any] | None = Field(description="The export or extraction it made.")
    export_id: str | None = Field(default=None, description="The export it queued, if any.")
    extraction_id: str | None = Field(
        default=None, description="The extraction it started, if any."
    )
    debited: int | None = Field(
        default=None,
        description="Credits the spend debited: the larger of what the server stated and the "
        "balance's fall (null: not an unlock, or not known).",
    )
    sent_now: bool = Field(
        default=False,
        description="True when this call's send made the debit (a replay of a pending spend "
        "that went out only now); false when an earlier send made it.",
    )
    overcharge: Overcharge | None = Field(
        default=None, description="Set when the server debited more than the quote."
    )
    allowance_left: dict[str, int] = Field(
        description="What is left of the budget given at start (credits, launches)."
    )


def _authorize_hint(quote: Quote) -> str:
    flag = "--max-launches" if quote.unit is Unit.LAUNCH else "--max-credits"
    return (
        "Ask the user. They can authorize spends in advance by restarting this server with "
        f"`leadtui mcp {flag} {quote.total}` (or more), approve each in the running leadtui app by "
        "restarting it with `leadtui mcp --approve-in-app`, or use an MCP client that can ask "
        "them (form elicitation); then call again."
    )


def quote_words(quote: Quote) -> str:
    return f"{quote.total_text()} (balance {quote.balance_text()})"


def refused(decision: Decision) -> ToolFailure:
    """A decision that is not send, as the agent reads it: nothing was sent."""
    code = decision.code
    if code in ASK_CODES and code not in (Code.PRICE_UNKNOWN, Code.QUOTE_CHANGED):
        shown = AUTHORIZATION_REQUIRED
    else:
        shown = code.value if code is not None else AUTHORIZATION_REQUIRED
    asks = code in ASK_CODES
    return ToolFailure(
        shown,
        f"Not sent: {decision.message} Cost: {quote_words(decision.quote)}.",
        hint=_authorize_hint(decision.quote) if asks else None,
        details=decision.refusal_details(),
    )


def declined(decision: Decision, asked: Asked) -> ToolFailure:
    return ToolFailure(
        AUTHORIZATION_DECLINED,
        f"The user was asked and did not authorize it ({asked.value}): nothing was sent. "
        f"Cost: {quote_words(decision.quote)}.",
        hint="Do not retry unless the user asks for it.",
        details={
            "answer": asked.value,
            "quote": decision.quote.to_json(),
            "decision": decision.to_json(),
        },
    )


def outcome_unknown(exc: SpendOutcomeUnknown) -> ToolFailure:
    key = exc.intent.idempotency_key
    cause = from_lead_error(exc.error)
    return ToolFailure(
        Code.OUTCOME_UNKNOWN,
        f"Whether the spend went through is unknown ({cause.code}: {cause.message}). It is "
        f"journaled as pending under the idempotency key {key}; it never counts as failed.",
        hint=(
            "Call the same tool again with this idempotency_key (never a second debit); the "
            "user sees it in `leadtui pending` and the app."
        ),
        status=cause.status,
        request_id=cause.request_id,
        details={"idempotency_key": key, "cause": cause.code},
    )


@contextlib.asynccontextmanager
async def refused_unsent() -> AsyncIterator[None]:
    """The spend core's refusals, and a journal it cannot write, as tool errors: nothing was
    sent (a spend is first written down)."""
    try:
        yield
    except SpendBlocked as exc:
        raise blocked(exc) from None
    except (JournalError, StateDirError) as exc:
        raise ToolFailure(
            Code.JOURNAL_UNAVAILABLE, f"{exc} Nothing was sent: a spend is first written down."
        ) from None


def blocked(exc: SpendBlocked) -> ToolFailure:
    if isinstance(exc, SpendRefused) and exc.decision is not None:
        return refused(exc.decision)
    code = INVALID_REQUEST if isinstance(exc, InvalidIdempotencyKey) else exc.code
    return ToolFailure(code, f"{exc.title}: {exc.message}")
