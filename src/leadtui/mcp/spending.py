"""How the spending tools decide and spend (`Spender`): the one spend decision (`spend/`)
rendered, none added.

The quote, the balance read fresh, the allowance given at start (`--max-credits`,
`--max-launches`), what the journal knows and the caller's idempotency key all go to
`SpendGate.decide`; `send` is sent within the allowance (which then shrinks by the quote),
`ask` asks the user (see `asking.py`: in the client, or in the running app when the user opted
in) and only a yes sends; anything else sends nothing and answers an error with its code and
the quote. The tools themselves are in `spend_tools.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from leadtui.api.errors import LeadError
from leadtui.config.errors import StateDirError
from leadtui.mcp import approving, asking
from leadtui.mcp.asking import Asked
from leadtui.mcp.reading import as_json
from leadtui.mcp.results import ToolFailure, answer, from_lead_error
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.spend_answers import (
    JOURNAL_UNAVAILABLE,
    SpendOut,
    allowance_json,
    blocked,
    declined,
    outcome_unknown,
    quote_words,
    refused,
)
from leadtui.spend.decision import Authorization, AuthorizedBy, Decision, Surface, Verdict
from leadtui.spend.errors import JournalError, SpendBlocked, SpendOutcomeUnknown
from leadtui.spend.gate import SpendResult
from leadtui.spend.request import SpendRequest

Make = Callable[[Any], Awaitable[SpendRequest]]
"""Builds a spend's request with the client (reading what its quote needs)."""


@dataclass(frozen=True)
class Priced:
    """A spend about to be authorized, and what the one decision says of it."""

    request: SpendRequest
    decision: Decision
    make: Make
    """How the request was built: built again, it is quoted again."""


class Spender:
    """The tools' one way to decide and to spend, with the allowance this server keeps."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def authorization(self, ctx: Context[Any, Any], *, confirmed: bool = False) -> Authorization:
        return Authorization(
            Surface.AGENT,
            confirmed=confirmed,
            allowance=self.runtime.allowance,
            can_ask=asking.can_ask(ctx) or self.runtime.approves_in_app,
        )

    async def priced(self, ctx: Context[Any, Any], make: Make) -> Priced:
        """Build the request (`make(client)`), then ask the one decision about it."""
        client = self.runtime.client()
        try:
            request = await make(client)
            decision = await self.runtime.gate().decide(request, client, self.authorization(ctx))
        except SpendBlocked as exc:
            raise blocked(exc) from None
        except (JournalError, StateDirError) as exc:
            raise ToolFailure(
                JOURNAL_UNAVAILABLE, f"{exc} Nothing was sent: a spend is first written down."
            ) from None
        return Priced(request, decision, make)

    async def approved_in_app(self, ctx: Context[Any, Any], priced: Priced) -> asking.Answer:
        """Ask the running app about the spend, at the decision's quote, and wait for its yes.
        Raises ToolFailure when none comes."""
        decision = priced.decision
        request = dataclasses.replace(priced.request, quote=decision.quote)
        approved = await approving.approved_in_app(self.runtime, ctx, decision, request)
        return asking.Answer(Asked.YES, approved)

    async def settle(
        self, ctx: Context[Any, Any], priced: Priced, outcome: Any, dry_run: bool
    ) -> CallToolResult:
        """Render the decision: a dry run, a refusal, the user's answer, or the spend."""
        decision = priced.decision
        if dry_run:
            return self._dry_run(priced)
        if decision.verdict is Verdict.REFUSE:
            raise refused(decision)
        if decision.verdict is not Verdict.ASK:
            return await self._spend(ctx, priced, confirmed=False)
        answer = asking.answer_of(outcome)
        if answer.asked is Asked.CANNOT_ASK:
            raise refused(decision)
        if not answer.given:
            raise declined(decision, answer.asked)
        if answer.approved is None:
            return await self._spend(ctx, priced, confirmed=True)
        # Approved in the app: exactly the spend it approved (perhaps quoted again) is sent.
        approved = dataclasses.replace(priced, request=answer.approved.request)
        async with approving.told_to_the_app(self.runtime, answer.approved):
            return await self._spend(ctx, approved, confirmed=True)

    async def _spend(
        self, ctx: Context[Any, Any], priced: Priced, confirmed: bool
    ) -> CallToolResult:
        runtime, client = self.runtime, self.runtime.client()
        # One spend at a time: two calls must not both fit in what is left of the allowance.
        async with runtime.spending:
            authorization = self.authorization(ctx, confirmed=confirmed)
            runtime.sending = priced.request.idempotency_key
            try:
                result = await runtime.gate().spend(priced.request, client, authorization)
            except SpendBlocked as exc:
                raise blocked(exc) from None
            except SpendOutcomeUnknown as exc:
                if exc.intent.authorized_by == AuthorizedBy.ALLOWANCE.value:
                    runtime.use_allowance(priced.decision.quote)
                raise outcome_unknown(exc) from None
            except (JournalError, StateDirError) as exc:
                raise ToolFailure(
                    JOURNAL_UNAVAILABLE,
                    f"{exc} Nothing was sent: a spend is first written down.",
                ) from None
            except LeadError as exc:  # a definitive refusal: journaled, nothing spent
                failure = from_lead_error(exc)
                failure.details["idempotency_key"] = priced.request.idempotency_key
                raise failure from None
            finally:
                runtime.sending = None
            sent_by = result.decision.authorized_by if result.decision else None
            if sent_by is AuthorizedBy.ALLOWANCE and not result.replayed:
                runtime.use_allowance(result.decision.quote if result.decision else None)
        return self._sent(priced, result)

    def _dry_run(self, priced: Priced) -> CallToolResult:
        decision = priced.decision
        doc = SpendOut(
            sent=False,
            dry_run=True,
            idempotency_key=priced.request.idempotency_key,
            quote=decision.quote.to_json(),
            decision=decision.to_json(),
            record=None,
            allowance_left=allowance_json(self.runtime.allowance),
        ).model_dump(mode="json")
        verdict = decision.verdict.value + (f" ({decision.code.value})" if decision.code else "")
        return answer(
            doc,
            f"Dry run, nothing sent. Cost: {quote_words(decision.quote)}. The decision: "
            f"{verdict}. {decision.message}",
        )

    def _sent(self, priced: Priced, result: SpendResult) -> CallToolResult:
        decision = result.decision or priced.decision
        doc = SpendOut(
            sent=True,
            dry_run=False,
            replayed=result.replayed,
            idempotency_key=result.intent.idempotency_key,
            quote=decision.quote.to_json(),
            decision=decision.to_json(),
            record=as_json(result.record),
            debited=result.debited,
            overcharge=result.overcharge_text(),
            allowance_left=allowance_json(self.runtime.allowance),
        ).model_dump(mode="json")
        if result.replayed:
            summary = (
                f"Already done under the idempotency key {result.intent.idempotency_key}: the "
                "first outcome, nothing spent again."
            )
        else:
            summary = f"Sent: {quote_words(decision.quote)}."
        overcharge = result.overcharge_text()
        return answer(doc, summary + (f" {overcharge}" if overcharge else ""))
