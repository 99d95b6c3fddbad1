"""How this server asks the user about a spend (`ask`), and what came of it (`Answer`).

The question is a form (MCP elicitation) showing the quote; only an accepted form that says yes
authorizes the spend. On the newest protocol it travels in the tool's result (the SDK's
`Elicit`, answered when the client calls again, only for the same words); on older ones it is
asked here, within `McpDeps.ask_seconds`. A client that cannot ask, when the user opted in,
asks the running app instead (`approving.py`).
"""

from __future__ import annotations

import json
import logging
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final

import anyio
import anyio.abc
from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
)
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field, ValidationError, WithJsonSchema

from leadtui.spend.decision import Decision, Verdict
from leadtui.spend.quote import Quote, Unit, plural

if TYPE_CHECKING:
    from leadtui.spend.approval_wait import Approved

log = logging.getLogger(__name__)

# The first protocol revision where a question rides in the tool's result (input_required).
_QUESTIONS_IN_RESULTS: Final = "2026-07-28"
# The longest third-party text (a search's summary, categories) a question shows.
SHOWN_MAX: Final = 80
# The longest reason a question gives (the spend decision's message).
WHY_MAX: Final = 400
# While the user is asked mid-call: a progress notification this often, within the 10 s the
# MCP Inspector (and clients like it) wait between two before giving up.
PROGRESS_SECONDS: Final = 5.0


class SpendConsent(BaseModel):
    """The form the user answers."""

    # Asked as a boolean; what comes back is kept as sent and read by `answer_of`: only a JSON
    # true is a yes, never "yes", "true" or 1 (a lax bool would turn those into one).
    confirm: Annotated[object, WithJsonSchema({"type": "boolean"})] = Field(
        title="Spend as quoted",
        description="Yes sends this spend exactly as quoted; no sends nothing.",
    )


class Asked(StrEnum):
    YES = "yes"
    NO = "no"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"
    FAILED = "failed"
    NOT_ASKED = "not_asked"  # nothing needed asking (send or refuse), or a dry run
    CANNOT_ASK = "cannot_ask"  # the client declared no way to ask its user (no form elicitation)


@dataclass(frozen=True)
class Answer:
    asked: Asked
    approved: Approved | None = None  # a yes in the running app: exactly the spend to send


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


def one_line(text: str, limit: int) -> str:
    """`text` on one line: no control or format characters, spaces collapsed, at most `limit`
    characters (cut with an ellipsis)."""
    kept = "".join(" " if unicodedata.category(char)[0] in "CZ" else char for char in text)
    line = " ".join(kept.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def quoted(text: str, limit: int = SHOWN_MAX) -> str:
    """Third-party text as the question shows it: one line, cut, in quotes (so it reads as a
    name, never as a line of ours)."""
    return json.dumps(one_line(text, limit), ensure_ascii=False)


def question(decision: Decision) -> str:
    """The form's message: what it costs and the balance before → after first, then what it
    buys. Made from the quote alone, so the same spend asks the same question (an answer
    counts only for the words it answered); what the server named (a search's summary, an
    extraction's categories) appears only quoted, on one line."""
    quote = decision.quote
    if quote.unit is Unit.CREDIT:
        what = (
            f"Unlock {plural(quote.units, 'result')} of search {quoted(quote.target)} at "
            f"{plural(quote.price, 'credit')} per result ({quote.price_source.value})"
        )
        left = "Balance"
    else:
        what = f"{quote.operation.value}: {quoted(quote.target)}"
        left = "Launches left"
    return (
        f"Cost: {quote.total_text()}. {left}: {quote.balance_text()}.\n"
        f"An AI agent asks to spend it through leadtui. Operation: {what}.\n"
        # The decision's words are ours, but may cite what the server stated (a price).
        f"Why you are asked: {one_line(decision.message, WHY_MAX)}\n"
        "Accept and confirm to send it; anything else sends nothing."
    )


def answer_of(result: Any) -> Answer:
    """What asking came to, as the tool receives it: the user's form, or a plain `Answer`
    (which the SDK wraps as accepted: it is read back here, never taken for a yes)."""
    if isinstance(result, AcceptedElicitation):
        data = result.data
        if isinstance(data, SpendConsent):
            if data.confirm is True:
                return Answer(Asked.YES)
            return Answer(Asked.NO if data.confirm is False else Asked.FAILED)
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
            async with anyio.create_task_group() as group:
                await group.start(_tell_the_wait, ctx, decision.quote, seconds)
                try:
                    result = await ctx.elicit(question(decision), SpendConsent)
                except (MCPError, ValueError, ValidationError) as exc:
                    log.info("asking the user failed (%s): nothing is sent", type(exc).__name__)
                    return Answer(Asked.FAILED)
                finally:
                    group.cancel_scope.cancel()
    except TimeoutError:
        return Answer(Asked.TIMED_OUT)
    return answer_of(result)


async def _tell_the_wait(
    ctx: Context[Any, Any],
    quote: Quote,
    seconds: float,
    *,
    task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """While the user is asked: a progress notification at once and every PROGRESS_SECONDS
    (seconds waited of the wait), for a client that resets its request timeout on progress.
    A no-op when the call carries no progress token."""
    started = time.monotonic()
    message = f"Waiting for the user's answer about spending {quote.total_text()}"
    while True:
        await ctx.report_progress(min(time.monotonic() - started, seconds), seconds, message)
        task_status.started()  # the first one is sent before the question
        await anyio.sleep(PROGRESS_SECONDS)
