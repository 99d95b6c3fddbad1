"""How a journaled spend goes out and comes back: the POST as journaled, what a failure says
of the server's side, and what is recorded of the answer."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError, LeadError, RequestTimeout
from leadtui.api.guidance import NETWORK, TIMEOUT
from leadtui.api.keys import short_key
from leadtui.api.models import Export, Extraction
from leadtui.spend.intent import SpendIntent, SpendOperation

log = logging.getLogger(__name__)


def may_have_acted(error: LeadError) -> bool:
    """A failure after which the server may hold the spend: no answer, a timeout, a 5xx, or a
    success whose body could not be read. (429 and 425 are refusals before any work.)"""
    if not isinstance(error, ApiError):
        return True
    return not 400 <= error.status < 500 or error.status == 408


def error_code(error: LeadError) -> str:
    fault = TIMEOUT if isinstance(error, RequestTimeout) else NETWORK
    return error.code if isinstance(error, ApiError) else fault


@contextmanager
def quietly(key: str) -> Iterator[None]:
    """Around recording the server's answer: a journal failure is logged, not raised over it
    (the intent stays pending, and a resend with its key cannot debit twice)."""
    try:
        yield
    except Exception:
        log.warning("could not record the outcome of intent %s", short_key(key))


def journaled_record(intent: SpendIntent) -> Export | Extraction:
    """The record a settled spend's server answer held, as the journal kept it."""
    detail, unlock = intent.outcome_detail, intent.operation is SpendOperation.UNLOCK
    kept = detail.get("record")
    if not isinstance(kept, dict):  # an earlier version kept only the id and the status
        id_field = "exportId" if unlock else "extractionId"
        kept = {id_field: str(detail.get("id")), "status": str(detail.get("status"))}
    return Export.model_validate(kept) if unlock else Extraction.model_validate(kept)


async def dispatch(intent: SpendIntent, client: LeadClient) -> Export | Extraction:
    """Send the intent as journaled: its body text, byte for byte, with its key. (A row an
    earlier version wrote kept no body: it is rebuilt from its params as that version did.)"""
    key, params = intent.idempotency_key, intent.params
    body = None if intent.body is None else intent.body.encode()
    if intent.operation is SpendOperation.UNLOCK:
        return await client.exports.create(
            str(params["search_id"]),
            int(params["additional_results"]),
            idempotency_key=key,
            raw_body=body,
        )
    if intent.operation is SpendOperation.EXTRACTION_CREATE:
        return await client.extractions.create(
            dict(params["request"]), idempotency_key=key, raw_body=body
        )
    return await client.extractions.launch(str(params["extraction_id"]), idempotency_key=key)
