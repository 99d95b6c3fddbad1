"""`leadtui unlock SEARCH_ID --results N`: the credit-spending command."""

from __future__ import annotations

from pydantic import ValidationError

from leadtui.api.models import Export, ExportRequest
from leadtui.api.reasons import field_reasons
from leadtui.cli import approving, spending
from leadtui.cli.commands.exports import export_rows
from leadtui.cli.failures import usage_failure
from leadtui.cli.runtime import Context


def _check_count(results: int) -> None:
    try:
        ExportRequest(additional_results=results)
    except ValidationError as exc:
        reason = field_reasons(exc)[0]["reason"]
        raise usage_failure(f"--results {results}: {reason}. Nothing was sent.") from None


async def run(ctx: Context) -> int:
    ns = ctx.ns
    _check_count(ns.results)
    if ns.max_credits is not None and ns.max_credits < 0:
        raise usage_failure("--max-credits must be 0 or more. Nothing was sent.")
    approving.check_options(ctx)
    spend = await spending.unlock_spend(ctx, ns.search_id, ns.results)
    if ns.dry_run:
        return await spending.show_dry_run(ctx, spend)
    result = await spending.execute(ctx, spend)
    spending.show_spent(ctx, result, export_rows)
    export = result.record
    if isinstance(export, Export):
        ctx.out.info(f"Follow it with: leadtui exports wait {export.exportId}")
    return 0
