"""Request and record models: one schema, one set of limits, shared by client, UI and sandbox.

Request models are strict (unknown members and nulls rejected) and carry every bound in the
spec's Limits table. Record models are tolerant: the spec shows few of their fields, so only
what it states is required and everything else is kept as extra.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Generic, Literal, TypeVar

from pydantic import (
    AfterValidator,
    AnyUrl,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    TypeAdapter,
    model_validator,
)

# --- The spec's Limits table -------------------------------------------------------------

PAGE_LIMIT_MIN: Final = 1
PAGE_LIMIT_MAX: Final = 100
PAGE_LIMIT_DEFAULT: Final = 25
ADDITIONAL_RESULTS_MIN: Final = 1
ADDITIONAL_RESULTS_MAX: Final = 50_000
IDEMPOTENCY_KEY_MIN: Final = 1
IDEMPOTENCY_KEY_MAX: Final = 128
SEARCH_SECTION_MIN: Final = 1
SEARCH_SECTION_MAX: Final = 100
SEARCH_ITEM_NAME_MAX: Final = 160
SEARCH_ITEM_QUERY_NAMES_MAX: Final = 30
SEARCH_ITEM_LOCALISATION_IDS_MAX: Final = 200

# --- Where the spec is silent: the sizes of an ExtractionRequest's members (our choice) ---
# A record stays under ~300 KB; the sandbox also ends a page of records at 1 MiB of JSON.

EXTRACTION_LIST_MAX: Final = 100
"""At most this many values in each list member (categories, countries, ..., urls)."""
EXTRACTION_VALUE_MAX: Final = 200
"""Characters of one category, country, localisation or enrichment source."""
EXTRACTION_URL_MAX: Final = 2_000
"""Characters of one url."""
SERP_CONFIG_MAX_BYTES: Final = 16_384
"""serp_config, written as compact JSON in UTF-8."""
USAGE_WINDOW_DAYS: Final = 30

PageLimit = Annotated[int, Field(ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)]
IdempotencyKey = Annotated[
    str, StringConstraints(min_length=IDEMPOTENCY_KEY_MIN, max_length=IDEMPOTENCY_KEY_MAX)
]

_uri_adapter: TypeAdapter[AnyUrl] = TypeAdapter(AnyUrl)


def _check_uri(value: str) -> str:
    _uri_adapter.validate_python(value)
    return value


Uri = Annotated[str, AfterValidator(_check_uri), Field(json_schema_extra={"format": "uri"})]

ExtractionValues = Annotated[
    list[Annotated[str, Field(max_length=EXTRACTION_VALUE_MAX)]],
    Field(max_length=EXTRACTION_LIST_MAX),
]
ExtractionUrls = Annotated[
    list[Annotated[Uri, Field(max_length=EXTRACTION_URL_MAX)]],
    Field(max_length=EXTRACTION_LIST_MAX),
]


def _check_serp_size(value: dict[str, Any]) -> dict[str, Any]:
    size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
    if size > SERP_CONFIG_MAX_BYTES:
        raise ValueError(f"is {size:,} bytes as JSON; at most {SERP_CONFIG_MAX_BYTES:,}")
    return value


SerpConfig = Annotated[
    dict[str, Any],
    AfterValidator(_check_serp_size),
    Field(description=f"A JSON object of at most {SERP_CONFIG_MAX_BYTES:,} bytes (compact UTF-8)."),
]


def _integral(value: Any) -> Any:
    # JSON Schema counts 5.0 as an integer; 5.5, "5" and true stay what they are (rejected).
    if type(value) is float and value.is_integer():
        return int(value)
    return value


# Every integer member of a request ends with this: any integral JSON number (5 or 5.0),
# never a string or a boolean. (After the bounds, so they stay minimum/maximum in the schema.)
INTEGRAL: Final = BeforeValidator(_integral)


def _absent_or_value(schema: dict[str, Any]) -> None:
    """Optional members may be omitted but are never null, and the JSON Schema says so."""
    for member in schema.get("properties", {}).values():
        if "default" in member and member["default"] is None:
            del member["default"]
        branches = member.get("anyOf")
        if branches and {"type": "null"} in branches:
            rest = [branch for branch in branches if branch != {"type": "null"}]
            del member["anyOf"]
            if len(rest) == 1:
                member.update(rest[0])
            else:
                member["anyOf"] = rest


class RequestModel(BaseModel):
    """Strict request body: no unknown members, no nulls, no type coercion."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, json_schema_extra=_absent_or_value
    )

    @model_validator(mode="before")
    @classmethod
    def _reject_nulls(cls, data: Any) -> Any:
        # Optional members may be omitted, but the schema has no nullable member.
        if isinstance(data, dict):
            for key, value in data.items():
                if value is None:
                    raise ValueError(f"{key}: must not be null (omit it instead)")
        return data

    def to_body(self) -> dict[str, Any]:
        """The JSON body to send: optional members that were not given are left out."""
        return self.model_dump(mode="json", exclude_none=True)


class SearchItem(RequestModel):
    name: Annotated[str, Field(max_length=SEARCH_ITEM_NAME_MAX)]
    queryNames: Annotated[list[str], Field(max_length=SEARCH_ITEM_QUERY_NAMES_MAX)] | None = None
    localisationType: str | None = None
    localisationIdentifiers: (
        Annotated[list[str], Field(max_length=SEARCH_ITEM_LOCALISATION_IDS_MAX)] | None
    ) = None


SearchSection = Annotated[
    list[SearchItem], Field(min_length=SEARCH_SECTION_MIN, max_length=SEARCH_SECTION_MAX)
]


class SearchRequest(RequestModel):
    activities: SearchSection
    countries: SearchSection
    localisations: SearchSection
    result_filter: dict[str, Any] | None = None


class ExportRequest(RequestModel):
    """Body of `POST /searches/{searchId}/exports` (unlock)."""

    additional_results: Annotated[
        int, Field(ge=ADDITIONAL_RESULTS_MIN, le=ADDITIONAL_RESULTS_MAX), INTEGRAL
    ]


class ExtractionRequest(RequestModel):
    categories: ExtractionValues
    countries: ExtractionValues
    localisations: ExtractionValues
    urls: ExtractionUrls | None = None
    enrichment_sources: ExtractionValues
    serp_config: SerpConfig | None = None


class ExtractionDraft(RequestModel):
    """Body of draft creation and draft update (our choice): a partial ExtractionRequest."""

    categories: ExtractionValues | None = None
    countries: ExtractionValues | None = None
    localisations: ExtractionValues | None = None
    urls: ExtractionUrls | None = None
    enrichment_sources: ExtractionValues | None = None
    serp_config: SerpConfig | None = None


class ExtractionAction(RequestModel):
    """Body of `PATCH /extractions/{id}` (our choice)."""

    action: Literal["pause", "resume"]


class CustomDownloadRequest(RequestModel):
    """Body of `POST /exports/{id}/custom-download` (our choice)."""

    columns: Annotated[list[str], Field(min_length=1)]
    format: Literal["csv", "json"] = "csv"


# --- Records -----------------------------------------------------------------------------

# A moving job is read again as the server asks (`Retry-After`), else after DEFAULT; never
# sooner than MIN, so a `Retry-After: 0` cannot become a busy loop against the server.
DEFAULT_POLL_SECONDS: Final = 2.0
MIN_POLL_SECONDS: Final = 1.0


class Record(BaseModel):
    """A server record: only what the spec states is required, everything else kept."""

    model_config = ConfigDict(extra="allow")

    # Set by the client from the response, never parsed from the body.
    _idempotency_key: str | None = PrivateAttr(default=None)
    _poll_after: float | None = PrivateAttr(default=None)
    _request_id: str | None = PrivateAttr(default=None)

    def extra(self, name: str, default: Any = None) -> Any:
        """A field the spec does not show, read tolerantly."""
        return (self.model_extra or {}).get(name, default)

    @property
    def idempotency_key(self) -> str | None:
        """The Idempotency-Key the call that returned this record carried, if any."""
        return self._idempotency_key

    @property
    def request_id(self) -> str | None:
        """The request id of the answer this record came in, when the server gave one."""
        return self._request_id

    @property
    def poll_after(self) -> float | None:
        """Seconds the server asked us to wait before polling again (`Retry-After`)."""
        return self._poll_after

    def next_poll_seconds(self) -> float:
        wanted = DEFAULT_POLL_SECONDS if self._poll_after is None else self._poll_after
        return max(wanted, MIN_POLL_SECONDS)

    def as_sent(self) -> dict[str, Any]:
        """The record as the server sent it: every field it had, none we default."""
        return self.model_dump(mode="json", exclude_unset=True)


class Subscription(Record):
    status: str


class Account(Record):
    id: str | None = None
    name: str | None = None


class Identity(Record):
    """`GET /me` → `data`."""

    credits: int
    subscription: Subscription
    scopes: list[str] = Field(default_factory=list)
    account: Account | None = None

    @property
    def active(self) -> bool:
        return self.subscription.status == "active"

    @property
    def launches_left(self) -> int | None:
        """Extraction launches the account has left (`extraction_launches.remaining`, which
        the spec does not promise); None when not stated as a whole number."""
        launches = self.extra("extraction_launches")
        left = launches.get("remaining") if isinstance(launches, dict) else None
        return left if isinstance(left, int) and not isinstance(left, bool) else None


class UsageDay(Record):
    date: str
    requests: int = 0
    credits_used: int = 0


class UsageTotals(Record):
    requests: int = 0
    credits_used: int = 0


class Usage(Record):
    """`GET /usage` → `data`: 30-day totals, a daily series, credits and access status."""

    window_days: int = USAGE_WINDOW_DAYS
    totals: UsageTotals = Field(default_factory=UsageTotals)
    daily: list[UsageDay] = Field(default_factory=list)
    credits: int | None = None
    access: dict[str, Any] | None = None


class Search(Record):
    searchId: str
    result_count: int | None = None
    unlocked_count: int | None = None
    price_per_result: Any = None
    """As the server wrote it (any JSON value): `spend.quote.stated_price` decides whether it is
    a usable price, so `true` or `"5"` is never read as 1 or 5."""
    created_at: str | None = None


class Lead(Record):
    """A lead record; the spec shows none of its fields."""


class Export(Record):
    exportId: str
    status: str
    searchId: str | None = None
    additional_results: int | None = None
    progress: float | None = None
    created_at: str | None = None
    updated_at: str | None = None


class Extraction(Record):
    extractionId: str
    status: str | None = None
    created_at: str | None = None
    updated_at: str | None = None


T = TypeVar("T")

# A million records at the largest page size: no account's list is this long, every loop is.
MAX_PAGES_PER_WALK: Final = 10_000


class Page(BaseModel, Generic[T]):
    """One page of a cursor-paginated list; `next_cursor` is None on the last page."""

    items: list[T]
    next_cursor: str | None = None

    _poll_after: float | None = PrivateAttr(default=None)
    _dropped_cursor: str | None = PrivateAttr(default=None)

    @property
    def poll_after(self) -> float | None:
        """Seconds the server asked us to wait before polling again (`Retry-After`)."""
        return self._poll_after

    @property
    def dropped_cursor(self) -> str | None:
        """The cursor an empty page still named (the walk ends there regardless): a reader
        that must know whether the list is whole sees that the server said there was more."""
        return self._dropped_cursor

    @property
    def is_last(self) -> bool:
        """True when no page follows this one: no `next_cursor`, or no items at all (an
        empty page ends a walk whatever cursor it carries, so a server cannot loop a reader)."""
        return self.next_cursor is None or not self.items
