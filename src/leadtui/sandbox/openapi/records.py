"""The bodies the sandbox answers with, as schemas for the OpenAPI document.

The spec shows few record fields; these are the sandbox's, exactly (no member is left out,
none is added), so a conformance run can hold every answer to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from leadtui.api.contract import ExportStatus, ExtractionStatus, Scope
from leadtui.api.models import SearchRequest

Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Count = Annotated[int, Field(ge=0)]
Fraction = Annotated[float, Field(ge=0, le=1)]
Cursor = Annotated[
    str | None, Field(description="The cursor of the next page; null on the last page.")
]
ResultsState = Literal["live", "archived"]
AccessStatus = Literal["active", "inactive", "suspended"]


class _Exact(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SearchRecord(_Exact):
    searchId: str
    status: Literal["counted"]
    summary: str
    result_count: Count
    unlocked_count: Count
    locked_count: Count
    price_per_result: Count
    request: SearchRequest
    created_at: Timestamp


class LeadRecord(_Exact):
    leadId: str
    company: str
    activity: str
    address: str
    postal_code: str
    city: str
    country: str
    phone: str
    email: str
    website: str
    rating: float
    reviews_count: Count
    latitude: float
    longitude: float


class ExportRecord(_Exact):
    exportId: str
    searchId: str
    status: ExportStatus
    progress: Fraction
    additional_results: Count
    result_count: Count
    credits_debited: Count
    price_per_result: Count
    retries: Count
    created_at: Timestamp
    updated_at: Timestamp
    download_path: str | None = Field(description="Set once the export is ready.")


class ExtractionRecord(_Exact):
    extractionId: str
    status: ExtractionStatus
    progress: Fraction
    editable: bool
    results_state: ResultsState | None = Field(description="null while a draft.")
    result_count: Count
    categories: list[str] | None
    countries: list[str] | None
    localisations: list[str] | None
    urls: list[str] | None
    enrichment_sources: list[str] | None
    serp_config: dict[str, Any] | None
    launch_cost: Count
    created_at: Timestamp
    updated_at: Timestamp
    launched_at: Timestamp | None


class AccountRef(_Exact):
    id: str
    name: str


class SubscriptionState(_Exact):
    status: Literal["active", "inactive"]
    plan: str


class AccessState(_Exact):
    status: AccessStatus


class KeyRef(_Exact):
    id: str
    label: str
    expires_at: Timestamp | None


class LaunchQuota(_Exact):
    quota: Count
    used: Count
    remaining: Count
    cost_per_launch: Count


class Identity(_Exact):
    account: AccountRef
    credits: Count
    subscription: SubscriptionState
    access: AccessState
    scopes: list[Scope]
    key: KeyRef
    price_per_result: Count
    extraction_launches: LaunchQuota


class UsageFigures(_Exact):
    requests: Count
    credits_used: Count


class UsageDay(UsageFigures):
    date: Annotated[str, Field(json_schema_extra={"format": "date"})]


class UsageSummary(_Exact):
    window_days: Count
    totals: UsageFigures
    daily: list[UsageDay]
    credits: Count
    access: AccessState


class LaunchPricing(_Exact):
    credits: Count
    launches_consumed: Count
    note: str
    quota_by_account: dict[str, int]


class Pricing(_Exact):
    unit: Literal["credits"]
    price_per_result: Count
    extraction_launch: LaunchPricing


class OperationLink(_Exact):
    method: str
    path: str
    summary: str | None
    scope: Scope | None


class Lever(_Exact):
    method: str
    path: str
    summary: str


class FaultSettings(_Exact):
    fault_rate: Fraction
    fault_seed: int | None
    latency_ms: Count
    job_seconds: Annotated[float, Field(ge=0)]
    how: str


class SandboxArea(_Exact):
    note: str
    control: str
    levers: list[Lever]
    faults: FaultSettings


class Discovery(_Exact):
    name: str
    version: str
    base_path: str
    openapi: str
    docs: str
    authentication: str
    idempotency_header: str
    pricing: Pricing
    operations: list[OperationLink]
    sandbox: SandboxArea


def _one(name: str, record: type[_Exact]) -> type[_Exact]:
    """The body `{"data": record}`."""
    return create_model(name, __base__=_Exact, data=(record, ...))


OneSearch = _one("OneSearch", SearchRecord)
OneExport = _one("OneExport", ExportRecord)
OneExtraction = _one("OneExtraction", ExtractionRecord)
OneIdentity = _one("OneIdentity", Identity)
OneUsage = _one("OneUsage", UsageSummary)


def _page(name: str, records: type[Sequence[_Exact]]) -> type[_Exact]:
    """The body `{"data": records, "next_cursor": ...}`."""
    return create_model(name, __base__=_Exact, data=(records, ...), next_cursor=(Cursor, ...))


SearchPage = _page("SearchPage", list[SearchRecord])
ExportPage = _page("ExportPage", list[ExportRecord])
ExtractionPage = _page("ExtractionPage", list[ExtractionRecord])
LeadPage = _page("LeadPage", list[LeadRecord])
ExtractionResultsPage = create_model(
    "ExtractionResultsPage", __base__=LeadPage, results_state=(ResultsState | None, ...)
)
