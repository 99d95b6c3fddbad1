"""What every resource of the client does the same way: read a record or a page of a list,
read a record's results, and send a call marked with an Idempotency-Key. Query parameters are
checked against the spec's bounds before anything is sent."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from leadtui.api.errors import InvalidIdempotencyKey, LeadError
from leadtui.api.keys import idempotency_key_problem, new_idempotency_key
from leadtui.api.models import Lead, Page, PageLimit, Record, RequestModel
from leadtui.api.parsing import parse_page, parse_record
from leadtui.api.transport import Transport
from leadtui.api.urls import segment

R = TypeVar("R", bound=Record)


class ListParams(RequestModel):
    """`cursor` and `limit` of a paginated list (limit 1 to 100)."""

    cursor: str | None = None
    limit: PageLimit | None = None


class Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def _record(
        self, method: str, path: str, model: type[R], body: dict[str, Any] | None = None
    ) -> R:
        return parse_record(await self._transport.request(method, path, json=body), model)

    async def _page(
        self, path: str, model: type[R], cursor: str | None, limit: int | None
    ) -> Page[R]:
        """One page; a `limit` out of bounds raises pydantic.ValidationError naming it."""
        given = {k: v for k, v in (("cursor", cursor), ("limit", limit)) if v is not None}
        params = ListParams.model_validate(given).to_body()
        return parse_page(await self._transport.request("GET", path, params=params), model, limit)

    async def _keyed(
        self,
        method: str,
        path: str,
        model: type[R],
        key: str | None,
        body: dict[str, Any] | None = None,
        raw_body: bytes | None = None,
    ) -> R:
        """One Idempotency-Key (the caller's, checked, or a fresh one) for every attempt, so
        a retry never acts twice; it is on the record returned and on any LeadError raised.
        `raw_body`: the body already encoded by the caller (the spend journal), sent as is."""
        if key is not None and (problem := idempotency_key_problem(key)) is not None:
            raise InvalidIdempotencyKey(f"Nothing was sent: {problem}.")
        used = key if key is not None else new_idempotency_key()
        try:
            response = await self._transport.request(
                method,
                path,
                json=body if raw_body is None else None,
                content=raw_body,
                idempotency_key=used,
            )
            return parse_record(response, model, idempotency_key=used)
        except LeadError as exc:
            exc.idempotency_key = used
            raise


class Collection(Resource, Generic[R]):
    """A collection of `model` records at `path`: pages of it, one record by id, and one
    record's results (lead records)."""

    path: str
    model: type[R]

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[R]:
        """One page, in the order the server lists them."""
        return await self._page(self.path, self.model, cursor, limit)

    async def get(self, record_id: str) -> R:
        """The record now; a job's `poll_after` says when to look again while it moves."""
        return await self._record("GET", f"{self.path}/{segment(record_id)}", self.model)

    async def results(
        self, record_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of the record's results: a search's unlocked ones, a ready export's, an
        extraction's live or archived ones (an export answers `export_not_ready` until
        it is ready)."""
        path = f"{self.path}/{segment(record_id)}/results"
        return await self._page(path, Lead, cursor, limit)
