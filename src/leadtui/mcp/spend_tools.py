"""The spending tools: each is the request it builds from its own arguments (a function below)
in one shell, `_add_tool`: price the request, ask about it when the decision says ask, render
the decision (`spending.Spender`). The SDK reads a tool's and a resolver's arguments from their
signatures: the shell's functions are given the builder's arguments that way.
"""

# No `from __future__ import annotations` here: the SDK reads each tool's
# `Annotated[..., Resolve(fn)]` at registration, and those name functions local to `_add_tool`.

import inspect
import typing
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Final, TypeVar

from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.api.client import LeadClient
from leadtui.api.models import (
    ADDITIONAL_RESULTS_MAX,
    ADDITIONAL_RESULTS_MIN,
    IDEMPOTENCY_KEY_MAX,
    IDEMPOTENCY_KEY_MIN,
    ExtractionRequest,
)
from leadtui.mcp import approving, asking
from leadtui.mcp.asking import SpendConsent
from leadtui.mcp.reading import ExtractionId, SearchId
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.spend_answers import SpendOut
from leadtui.mcp.spending import Priced, Spender
from leadtui.spend.request import (
    SpendRequest,
    extraction_request,
    launch_request,
    unlock_request,
)

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

# --- what each tool spends: its arguments, and the request they make --------------------


async def unlock_results(
    client: LeadClient,
    search_id: SearchId,
    results: Results,
    idempotency_key: IdempotencyKey = None,
) -> SpendRequest:
    """Unlock more results of a search. SPENDS CREDITS: results × the price per result the
    search states (get_search shows it), debited from the account's balance, and queues an
    export (wait_for_job, then export_results or download_export)."""
    search = await client.searches.get(search_id)
    return unlock_request(search, search_id, results, idempotency_key)


async def create_extraction(
    client: LeadClient, request: ExtractionBody, idempotency_key: IdempotencyKey = None
) -> SpendRequest:
    """Create and start an extraction in one call. CONSUMES ONE LAUNCH of the account's
    extraction quota (account shows the launches left); draft_extraction consumes none."""
    return extraction_request(request, idempotency_key)


async def launch_extraction(
    client: LeadClient, extraction_id: ExtractionId, idempotency_key: IdempotencyKey = None
) -> SpendRequest:
    """Launch an extraction draft. CONSUMES ONE LAUNCH of the account's extraction quota
    (account shows the launches left)."""
    return launch_request(extraction_id, idempotency_key)


Build = Callable[..., Awaitable[SpendRequest]]
"""`build(client, **arguments)`: a spending tool's request, from the tool's own arguments."""

TOOLS: Final[tuple[Build, ...]] = (unlock_results, create_extraction, launch_extraction)

# --- the shell every spending tool shares ------------------------------------------------

_Fn = TypeVar("_Fn", bound=Callable[..., Any])
_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_CONTEXT = inspect.Parameter("ctx", _KEYWORD, annotation=Context)


def _shaped(fn: _Fn, parameters: list[inspect.Parameter], returns: Any) -> _Fn:
    """`fn` (which takes `**arguments`) as the SDK reads it: these parameters, this return."""
    fn.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": returns}
    return fn


def _add_tool(server: MCPServer[Any], spender: Spender, build: Build, seconds: float) -> None:
    """Add the tool named after `build`: its arguments are `build`'s (after the client), then
    dry_run; the decision about the request they make is rendered, and asked about first when
    it says ask."""
    hints = typing.get_type_hints(build, include_extras=True)
    own = [
        parameter.replace(kind=_KEYWORD, annotation=hints[parameter.name])
        for parameter in list(inspect.signature(build).parameters.values())[1:]
    ]

    async def price(ctx: Context[Any, Any], **arguments: Any) -> Priced:
        return await spender.priced(ctx, lambda client: build(client, **arguments))

    _shaped(price, [_CONTEXT, *own], Priced)

    async def asked(
        ctx: Context, dry_run: bool, priced: Annotated[Priced, Resolve(price)]
    ) -> Elicit[SpendConsent] | asking.Answer:
        async def in_app() -> asking.Answer:
            decision, request = priced.decision, priced.request
            return await approving.approved_in_app(spender.runtime, ctx, decision, request)

        return await asking.ask(
            ctx,
            priced.decision,
            dry_run=dry_run,
            seconds=seconds,
            in_app=in_app if spender.runtime.approves_in_app else None,
        )

    async def tool(
        ctx: Context[Any, Any], priced: Priced, asked: Any, dry_run: bool, **_own: Any
    ) -> CallToolResult:
        return await spender.settle(ctx, priced, asked, dry_run)

    resolved = [
        inspect.Parameter("priced", _KEYWORD, annotation=Annotated[Priced, Resolve(price)]),
        inspect.Parameter(
            "asked", _KEYWORD, annotation=Annotated[ElicitationResult[SpendConsent], Resolve(asked)]
        ),
        inspect.Parameter("dry_run", _KEYWORD, default=False, annotation=DryRun),
    ]
    tool.__name__ = tool.__qualname__ = build.__name__  # its arguments' schema is named so
    returns = Annotated[CallToolResult, SpendOut]
    # What the tool spends (its builder's docstring, on one line), then the rule for all.
    description = " ".join((build.__doc__ or "").split()) + RULE
    add = server.tool(name=build.__name__, annotations=SPEND, description=description)
    add(_shaped(tool, [_CONTEXT, *own, *resolved], returns))


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    spender = Spender(runtime)
    for build in TOOLS:
        _add_tool(server, spender, build, runtime.deps.ask_seconds)
