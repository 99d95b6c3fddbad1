"""`leadtui unlock SEARCH_ID --results N`: the credit-spending command.

With `--wait` and `--download DIR` it is also the whole nightly job in one command: spend (or,
under an `--idempotency-key` already used, the first outcome), wait for the export, save its
ZIP in DIR once. Every failure on the way exits non-zero with its error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from leadtui.api.models import Export, ExportRequest
from leadtui.api.reasons import field_reasons
from leadtui.cli import approving, spending
from leadtui.cli.commands.exports import EXPORT_GOAL, describe_export, export_rows
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import JOB_FAILED, CliFailure, usage_failure
from leadtui.cli.files import download_folder, save_once
from leadtui.cli.runtime import Context
from leadtui.cli.waiting import wait_for
from leadtui.spend.debit import SpendResult
from leadtui.spend.errors import Code


def _check_count(results: int) -> None:
    try:
        ExportRequest(additional_results=results)
    except ValidationError as exc:
        reason = field_reasons(exc)[0]["reason"]
        raise usage_failure(f"--results {results}: {reason}. Nothing was sent.") from None


async def run(ctx: Context) -> int:
    ns = ctx.ns
    _check_count(ns.results)
    approving.check_options(ctx)
    folder = download_folder(ns.download) if ns.download and not ns.dry_run else None
    spend = await spending.unlock_spend(ctx, ns.search_id, ns.results)
    if ns.dry_run:
        return await spending.show_dry_run(ctx, spend)
    result = await _spend(ctx, spend)
    export = result.record
    if not isinstance(export, Export) or not (ns.wait or folder is not None):
        spending.show_spent(ctx, result, export_rows)
        if isinstance(export, Export):
            ctx.out.info(f"Follow it with: leadtui exports wait {export.exportId}")
        return 0
    return await _follow(ctx, export, folder, spending.spent_json(ctx, result))


async def _spend(ctx: Context, spend: spending.Spend) -> SpendResult:
    """Spend. A script that names each run's spend (`--idempotency-key`) declares this one a
    spend of its own: an identical one an earlier run left pending (its outcome unknown),
    within `--max-credits`, is first resolved by resending it with its own key (never a
    second debit for it), so one lost answer does not block every later run."""
    try:
        return await spending.execute(ctx, spend)
    except CliFailure as refusal:
        pending_key = refusal.details.get("pending_key")
        if refusal.code != Code.PENDING_SAME_SPEND or not isinstance(pending_key, str):
            raise
        if not await _within_ceiling(ctx, pending_key):
            raise
    await spending.resend(ctx, pending_key)
    ctx.out.info(f"Resent the spend left pending under {pending_key}, with its own key.")
    return await spending.execute(ctx, spend)


async def _within_ceiling(ctx: Context, pending_key: str) -> bool:
    ceiling = ctx.ns.max_credits
    if ceiling is None or ctx.ns.idempotency_key is None:
        return False
    pending = await spending.pending_intents(ctx)
    amount = next((i.amount for i in pending if i.idempotency_key == pending_key), None)
    return amount is not None and amount <= ceiling


async def _follow(ctx: Context, export: Export, folder: Path | None, spent: dict[str, Any]) -> int:
    """`--wait`, and `--download DIR`: the export once ready, and where its ZIP is (with what
    its spend debited: `spent`)."""
    exports = ctx.client().exports
    export_id = export.exportId
    ready, code = await wait_for(
        ctx, lambda: exports.get(export_id), EXPORT_GOAL, describe_export, ctx.ns.timeout
    )
    if code is not Exit.OK:
        raise CliFailure(
            JOB_FAILED,
            f"The export {export_id} {ready.status}: there is nothing to download.",
            Exit.JOB_FAILED,
            hint=f"Queue it again (no credits): leadtui exports retry {export_id}",
            details={"job_status": ready.status, "exportId": export_id},
        )
    saved: dict[str, Any] = {}
    if folder is not None:
        path, downloaded = await save_once(ctx, export_id, folder)
        saved = {"path": str(path), "bytes": path.stat().st_size, "downloaded": downloaded}
    if ctx.out.machine:
        ctx.out.document(ready.as_sent() | spent | saved)
    else:
        rows = list(export_rows(ready.as_sent()))
        if saved:
            rows.append(("Saved to", saved["path"]))
            rows.append(("Downloaded", "now" if saved["downloaded"] else "before (kept)"))
        ctx.out.fields(rows)
    return 0
