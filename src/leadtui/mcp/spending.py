"""The spending tools: `unlock_results`, `create_extraction`, `launch_extraction`.

Each renders the one spend decision (`spend/`) and adds none of its own: the quote, the balance
read fresh, the allowance given at start (`--max-credits`, `--max-launches`), what the journal
knows and the caller's idempotency key all go to `SpendGate.decide`; `send` is sent within the
allowance (which then shrinks by the quote), `ask` asks the user (see `asking.py`: in the
client, or in the running app when the user opted in) and only a yes sends, anything else
sends nothing and answers an error with its code and the quote.
"""

# No `from __future__ import annotations` here: the SDK reads each tool's
# `Annotated[..., Resolve(fn)]` at registration, and those name functions local to `register`.

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final

from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.api.errors import LeadError
from leadtui.api.models import (
    ADDITIONAL_RESULTS_MAX,
    ADDITIONAL_RESULTS_MIN,
    IDEMPOTENCY_KEY_MAX,
    IDEMPOTENCY_KEY_MIN,
    ExtractionRequest,
)
from leadtui.config.errors import StateDirError
from leadtui.mcp import approving, asking
from leadtui.mcp.asking import Asked, SpendConsent
from leadtui.mcp.reading import ExtractionId, SearchId, as_json
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
from leadtui.spend.decision import (
    Authorization,
    AuthorizedBy,
    Decision,
    Surface,
    Verdict,
)
from leadtui.spend.errors import (
    JournalError,
    SpendBlocked,
    SpendOutcomeUnknown,
)
from leadtui.spend.gate import SpendResult
from leadtui.spend.intent import SpendOperation
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest

Make = Callable[[Any], Awaitable[SpendRequest]]
"""Builds a spend's request with the client (reading what its quote needs)."""

# Spends credits or a launch; a retry with the same idempotency_key never spends twice.
SPEND = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True
)

RULE: Final = (
    " Authorization, in this order: within the budget the user gave when starting this server "
    "(--max-credits, --max-launches) it is sent; otherwise, if this client can ask its user "
    "(form elicitation), the user is shown the quote and only a yes sends; otherwise, if the "
    "user started this server with --approve-in-app, the call waits (with progress) for their "
    "yes in the running leadtui app, and a no or no answer in time sends nothing "
    "(denied_in_app, approval_timeout); otherwise nothing is sent and the answer is the error "
    "authorization_required with the quote: ask the user. A "
    "price the server does not state usably is never within a budget (price_unknown). "
    "dry_run: true answers the quote and the decision and sends nothing. The same "
    "idempotency_key again returns the first call's outcome, never a second debit."
)

Results = Annotated[
    int,
    Field(
        ge=ADDITIONAL_RESULTS_MIN,
        le=ADDITIONAL_RESULTS_MAX,
        strict=True,
        description=f"Results to unlock, {ADDITIONAL_RESULTS_MIN} to {ADDITIONAL_RESULTS_MAX:,}.",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Field(
        min_length=IDEMPOTENCY_KEY_MIN,
        max_length=IDEMPOTENCY_KEY_MAX,
        description="Your key for this spend (printable ASCII, 1 to 128 characters): calling "
        "again with it returns the first outcome, never a second debit. Omit for a fresh one.",
    ),
]
DryRun = Annotated[
    bool, Field(description="true: answer the quote and the decision; send nothing.")
]
ExtractionBody = Annotated[
    ExtractionRequest,
    Field(
        description="The spec's ExtractionRequest: categories, countries, localisations and "
        "enrichment_sources (required), urls and serp_config (optional)."
    ),
]


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

        async def requote(request: SpendRequest) -> SpendRequest:
            fresh = await self.priced(ctx, priced.make)
            if fresh.decision.verdict is Verdict.REFUSE:
                raise refused(fresh.decision)
            key = request.idempotency_key  # the same spend: its key stays
            return dataclasses.replace(
                fresh.request, quote=fresh.decision.quote, idempotency_key=key
            )

        decision = priced.decision
        request = dataclasses.replace(priced.request, quote=decision.quote)
        approved = await approving.approved_in_app(self.runtime, ctx, decision, request, requote)
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


_UNLOCK = (
    "Unlock more results of a search. SPENDS CREDITS: results × the price per result the "
    "search states (get_search shows it), debited from the account's balance, and queues an "
    "export (wait_for_job, then export_results or download_export)."
)
_CREATE = (
    "Create and start an extraction in one call. CONSUMES ONE LAUNCH of the account's "
    "extraction quota (account shows the launches left); draft_extraction consumes none."
)
_LAUNCH = (
    "Launch an extraction draft. CONSUMES ONE LAUNCH of the account's extraction quota "
    "(account shows the launches left)."
)


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    """Add the spending tools to `server`."""
    spender = Spender(runtime)
    seconds = runtime.deps.ask_seconds

    def asks_about(priced_by: Callable[..., Awaitable[Priced]]) -> Callable[..., Any]:
        """The resolver that asks the user about the spend `priced_by` priced."""

        async def asked(
            ctx: Context, dry_run: bool, priced: Annotated[Priced, Resolve(priced_by)]
        ) -> Elicit[SpendConsent] | asking.Answer:
            async def in_app() -> asking.Answer:
                return await spender.approved_in_app(ctx, priced)

            return await asking.ask(
                ctx,
                priced.decision,
                dry_run=dry_run,
                seconds=seconds,
                in_app=in_app if runtime.approves_in_app else None,
            )

        return asked

    async def unlock_priced(
        ctx: Context, search_id: str, results: int, idempotency_key: str | None
    ) -> Priced:
        async def make(client: Any) -> SpendRequest:
            search = await client.searches.get(search_id)
            quote = Quote.unlock(search, results, None)
            return SpendRequest.for_unlock(quote, search_id, idempotency_key)

        return await spender.priced(ctx, make)

    unlock_asked = asks_about(unlock_priced)

    @server.tool(annotations=SPEND, description=_UNLOCK + RULE)
    async def unlock_results(
        ctx: Context,
        search_id: SearchId,
        results: Results,
        priced: Annotated[Priced, Resolve(unlock_priced)],
        asked: Annotated[ElicitationResult[SpendConsent], Resolve(unlock_asked)],
        idempotency_key: IdempotencyKey = None,
        dry_run: DryRun = False,
    ) -> Annotated[CallToolResult, SpendOut]:
        return await spender.settle(ctx, priced, asked, dry_run)

    async def create_priced(
        ctx: Context, request: ExtractionRequest, idempotency_key: str | None
    ) -> Priced:
        async def make(client: Any) -> SpendRequest:
            target = "a new extraction of " + ", ".join(request.categories)
            quote = Quote.launch(SpendOperation.EXTRACTION_CREATE, target, None)
            return SpendRequest.for_extraction(quote, request, idempotency_key)

        return await spender.priced(ctx, make)

    create_asked = asks_about(create_priced)

    @server.tool(annotations=SPEND, description=_CREATE + RULE)
    async def create_extraction(
        ctx: Context,
        request: ExtractionBody,
        priced: Annotated[Priced, Resolve(create_priced)],
        asked: Annotated[ElicitationResult[SpendConsent], Resolve(create_asked)],
        idempotency_key: IdempotencyKey = None,
        dry_run: DryRun = False,
    ) -> Annotated[CallToolResult, SpendOut]:
        return await spender.settle(ctx, priced, asked, dry_run)

    async def launch_priced(
        ctx: Context, extraction_id: str, idempotency_key: str | None
    ) -> Priced:
        async def make(client: Any) -> SpendRequest:
            quote = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, f"draft {extraction_id}", None)
            return SpendRequest.for_launch(quote, extraction_id, idempotency_key)

        return await spender.priced(ctx, make)

    launch_asked = asks_about(launch_priced)

    @server.tool(annotations=SPEND, description=_LAUNCH + RULE)
    async def launch_extraction(
        ctx: Context,
        extraction_id: ExtractionId,
        priced: Annotated[Priced, Resolve(launch_priced)],
        asked: Annotated[ElicitationResult[SpendConsent], Resolve(launch_asked)],
        idempotency_key: IdempotencyKey = None,
        dry_run: DryRun = False,
    ) -> Annotated[CallToolResult, SpendOut]:
        return await spender.settle(ctx, priced, asked, dry_run)
