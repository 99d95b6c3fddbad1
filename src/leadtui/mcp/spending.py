"""How the spending tools (`spend_tools.py`) decide and spend: the one spend decision
(`SpendGate.decide`) rendered, none added. `send` is sent within the allowance given at start
(counted in the journal from the moment a spend is journaled, at what it really debited once
settled); `ask` asks the user (`asking.py`) and only a yes sends; anything else sends nothing
and answers an error with its code and the quote.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.mcp import approving, asking
from leadtui.mcp.asking import Asked
from leadtui.mcp.results import answer, from_lead_error
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.spend_answers import (
    SpendOut,
    declined,
    outcome_unknown,
    quote_words,
    refused,
    refused_unsent,
)
from leadtui.spend.approval_wait import told_to_the_app
from leadtui.spend.debit import SpendResult
from leadtui.spend.decision import (
    Accepted,
    Authorization,
    Decision,
    SpendRefused,
    Surface,
    Verdict,
)
from leadtui.spend.errors import SpendOutcomeUnknown
from leadtui.spend.request import SpendRequest


@dataclass(frozen=True)
class Priced:
    """A spend about to be authorized, and what the one decision says of it."""

    request: SpendRequest
    decision: Decision


class Spender:
    """The tools' one way to decide and to spend, with the allowance this server keeps."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def authorization(
        self, ctx: Context[Any, Any], *, accepted: Accepted | None = None
    ) -> Authorization:
        return Authorization(
            Surface.AGENT,
            confirmed=accepted is not None,
            allowance=self.runtime.allowance,
            can_ask=asking.can_ask(ctx) or self.runtime.approves_in_app,
            accepted=accepted,
            limits=self.runtime.limits,
        )

    async def priced(
        self, ctx: Context[Any, Any], make: Callable[[LeadClient], Awaitable[SpendRequest]]
    ) -> Priced:
        """Build the request with the client (reading what its quote needs), then ask the one
        decision about it."""
        client = self.runtime.client()
        async with refused_unsent():
            request = await make(client)
            decision = await self.runtime.gate().decide(request, client, self.authorization(ctx))
        return Priced(request, decision)

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
            return await self._spend(ctx, priced, None)
        answer = asking.answer_of(outcome)
        if answer.asked is Asked.CANNOT_ASK:
            raise refused(decision)
        if answer.asked is not Asked.YES:
            raise declined(decision, answer.asked)
        if answer.approved is None:
            # Where the answer came with this call, its read came after the yes: the one.
            fresh = asking.answered_before_the_call(ctx)
            return await self._spend(ctx, priced, decision, fresh=fresh)
        # Approved in the app: exactly the spend it approved (perhaps quoted again) is sent.
        approved = dataclasses.replace(priced, request=answer.approved.request)
        yes = dataclasses.replace(decision, quote=answer.approved.request.quote)
        journal = self.runtime.deps.journal_path
        async with told_to_the_app(journal, answer.approved, approving.failure_code):
            return await self._spend(ctx, approved, yes)

    async def _spend(
        self, ctx: Context[Any, Any], priced: Priced, yes: Decision | None, *, fresh: bool = False
    ) -> CallToolResult:
        """Send `priced`: on its decision's read when nobody was asked (or it was read after
        the yes: `fresh`), else read once more and held to the quote the user said yes to
        (`yes`); a higher one is asked again."""
        runtime, client = self.runtime, self.runtime.client()
        request = priced.request
        # One spend at a time: two calls must not both fit in what is left of the allowance.
        async with runtime.spending, refused_unsent():
            runtime.sending = request.idempotency_key
            try:
                while True:
                    accepted = None if yes is None else Accepted(request.request_hash, yes.quote)
                    authorization = self.authorization(ctx, accepted=accepted)
                    decided = priced.decision if yes is None or fresh else None
                    try:
                        result = await runtime.gate().spend(
                            request, client, authorization, decided=decided
                        )
                        break
                    except SpendRefused as exc:
                        yes, fresh = await self._asked_again(ctx, exc), False
                        request = dataclasses.replace(request, quote=yes.quote)
            except SpendOutcomeUnknown as exc:
                raise outcome_unknown(exc) from None
            except LeadError as exc:  # a definitive refusal: journaled, nothing spent
                failure = from_lead_error(exc)
                failure.details["idempotency_key"] = priced.request.idempotency_key
                raise failure from None
            finally:
                runtime.sending = None
        return self._sent(priced, result)

    async def _asked_again(self, ctx: Context[Any, Any], refusal: SpendRefused) -> Decision:
        """The price rose after the user's yes, and nothing was sent: the user is asked about
        the new quote in this client, inline; the new decision on a yes. Else it raises the
        refusal (`quote_changed` with both quotes) or the user's no."""
        again = refusal.asks_again
        if again is None:
            raise refusal
        answer = await asking.ask(ctx, again, dry_run=False, seconds=self.runtime.deps.ask_seconds)
        if not isinstance(answer, asking.Answer) or answer.asked is Asked.CANNOT_ASK:
            # Nobody to ask in this call (a later call carries the question): both quotes.
            raise refused(dataclasses.replace(again, verdict=Verdict.REFUSE))
        if answer.asked is not Asked.YES:
            raise declined(again, answer.asked)
        return again

    def _out(self, decision: Decision, **fields: object) -> dict[str, Any]:
        """What a spending tool answers, with the decision and what is left of the allowance."""
        return SpendOut(
            quote=decision.quote.to_json(),
            decision=decision.to_json(),
            allowance_left=dataclasses.asdict(self.runtime.allowance_left()),
            **fields,
        ).model_dump(mode="json")

    def _dry_run(self, priced: Priced) -> CallToolResult:
        decision = priced.decision
        key = priced.request.idempotency_key
        doc = self._out(decision, sent=False, dry_run=True, idempotency_key=key, record=None)
        verdict = decision.verdict.value + (f" ({decision.code.value})" if decision.code else "")
        return answer(
            doc,
            f"Dry run, nothing sent. Cost: {quote_words(decision.quote)}. The decision: "
            f"{verdict}. {decision.message}",
        )

    def _sent(self, priced: Priced, result: SpendResult) -> CallToolResult:
        decision = result.decision or priced.decision
        record = result.record.as_sent()
        doc = self._out(
            decision,
            sent=True,
            dry_run=False,
            replayed=result.replayed,
            idempotency_key=result.intent.idempotency_key,
            record=record,
            # The record's ids as the tools' arguments name them (wait_for_job takes them).
            export_id=record.get("exportId"),
            extraction_id=record.get("extractionId"),
            debited=result.debited,
            sent_now=result.sent_now,
            overcharge=result.overcharge_json(),
        )
        if result.replayed:
            debit = result.debit_text() or "nothing spent again."
            summary = (
                f"Already journaled under the idempotency key {result.intent.idempotency_key}: "
                f"its outcome. {debit}"
            )
        else:
            summary = f"Sent: {quote_words(decision.quote)}."
        overcharge = result.overcharge_text()
        return answer(doc, summary + (f" {overcharge}" if overcharge else ""))
