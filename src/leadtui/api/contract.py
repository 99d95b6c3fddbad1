"""Our answers to the gaps in the Lead Data API spec, as constants: docs/api-contract.md
says what each choice is and why, in one place.

The client tolerates more than this; the sandbox implements exactly this. When the real
service documents one of these, change it here and in docs/api-contract.md.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

API_PREFIX: Final = "/api/v1"
API_VERSION: Final = "1.0.0"

# Unlocking costs this many credits per result unless the server states a price.
DEFAULT_PRICE_PER_RESULT: Final = 1
# Seconds; sent on 202 and on reads of jobs still moving.
POLL_HINT_HEADER: Final = "Retry-After"
REQUEST_ID_HEADER: Final = "X-Request-Id"
IDEMPOTENCY_HEADER: Final = "Idempotency-Key"

# Deepest nesting of arrays and objects a request body may have (a body is level 1).
JSON_NESTING_MAX: Final = 32

# The columns of a lead record: those a custom download may ask for (our choice: the spec
# names no list of authorized columns).
LEAD_COLUMNS: Final = (
    "leadId",
    "company",
    "activity",
    "address",
    "postal_code",
    "city",
    "country",
    "phone",
    "email",
    "website",
    "rating",
    "reviews_count",
    "latitude",
    "longitude",
)

# Gateway statuses: passing failures, whatever the body says. The client retries them (and 429).
GATEWAY_STATUSES: Final = frozenset({502, 503, 504})


class ErrorCode(StrEnum):
    """Stable `error.code` values. Code branches on these, never on messages."""

    INVALID_REQUEST = "invalid_request"
    UNAUTHORIZED = "unauthorized"
    INSUFFICIENT_SCOPE = "insufficient_scope"
    SUBSCRIPTION_INACTIVE = "subscription_inactive"
    DATA_ACCESS_SUSPENDED = "data_access_suspended"
    NOT_FOUND = "not_found"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    INSUFFICIENT_RESULTS = "insufficient_results"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    EXPORT_NOT_READY = "export_not_ready"
    EXTRACTION_UNAVAILABLE = "extraction_unavailable"
    DRAFT_NOT_EDITABLE = "draft_not_editable"
    INVALID_TRANSITION = "invalid_transition"
    RATE_LIMITED = "rate_limited"
    INTERNAL_ERROR = "internal_error"
    # Client-side only: the server answered with something that is not the error object.
    BAD_RESPONSE = "bad_response"


class ExportStatus(StrEnum):
    QUEUED = "queued"
    PROCESSING = "processing"
    READY = "ready"
    FAILED = "failed"


class ExtractionStatus(StrEnum):
    DRAFT = "draft"
    QUEUED = "queued"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"
    COMPLETED = "completed"
    FAILED = "failed"


# Jobs in these states change on their own; everything else is settled.
MOVING_EXPORT_STATES: Final = frozenset({ExportStatus.QUEUED, ExportStatus.PROCESSING})
MOVING_EXTRACTION_STATES: Final = frozenset({ExtractionStatus.QUEUED, ExtractionStatus.RUNNING})
# A job reaching one of these has finished its run (paused and draft extractions have not).
SETTLED_EXPORT_STATES: Final = frozenset({ExportStatus.READY, ExportStatus.FAILED})
SETTLED_EXTRACTION_STATES: Final = frozenset(
    {ExtractionStatus.COMPLETED, ExtractionStatus.FAILED, ExtractionStatus.STOPPED}
)


class Scope(StrEnum):
    USAGE_READ = "usage:read"
    SEARCHES_READ = "searches:read"
    SEARCHES_WRITE = "searches:write"
    EXPORTS_READ = "exports:read"
    EXPORTS_WRITE = "exports:write"
    EXTRACTIONS_READ = "extractions:read"
    EXTRACTIONS_WRITE = "extractions:write"


# What each scope allows, in the words the account screen uses.
SCOPE_DESCRIPTIONS: Final[dict[Scope, str]] = {
    Scope.USAGE_READ: "see the account, credits and 30-day usage",
    Scope.SEARCHES_READ: "list searches and their unlocked results",
    Scope.SEARCHES_WRITE: "create searches",
    Scope.EXPORTS_READ: "list exports, read their results, download them",
    Scope.EXPORTS_WRITE: "unlock results (spends credits) and retry failed exports",
    Scope.EXTRACTIONS_READ: "list extractions and read their results",
    Scope.EXTRACTIONS_WRITE: "draft, launch, pause, resume and stop extractions",
}

READ_SCOPES: Final = frozenset(
    {Scope.USAGE_READ, Scope.SEARCHES_READ, Scope.EXPORTS_READ, Scope.EXTRACTIONS_READ}
)
ALL_SCOPES: Final = frozenset(Scope)
