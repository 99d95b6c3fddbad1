"""The typed async client for the Lead Data API. Never imports Textual; usable as a library.

Lazy (PEP 562): `from leadtui.api import LeadClient` works as always, but importing the package
imports none of its modules; each name imports its module on first use. Start-up time is a goal
of this project, and the models and resources need not be built before the first frame.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadtui.api.client import LeadClient
    from leadtui.api.errors import (
        ApiError,
        ConfigurationError,
        Conflict,
        ConnectionFailed,
        DownloadNotSaved,
        Forbidden,
        InvalidIdempotencyKey,
        InvalidRequest,
        LeadError,
        MalformedResponse,
        NotFound,
        RateLimited,
        Redirected,
        RequestTimeout,
        ServerError,
        TransportError,
        Unauthorized,
    )
    from leadtui.api.keys import (
        api_key_problem,
        idempotency_key_problem,
        mask_key,
        new_idempotency_key,
        short_key,
    )
    from leadtui.api.models import (
        CustomDownloadRequest,
        Export,
        ExportRequest,
        Extraction,
        ExtractionAction,
        ExtractionDraft,
        ExtractionRequest,
        Identity,
        Lead,
        Page,
        Record,
        Search,
        SearchItem,
        SearchRequest,
        Usage,
    )
    from leadtui.api.urls import validate_base_url

# Module (under leadtui.api) -> the public names it defines. Keep in step with the imports above.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "client": ("LeadClient",),
    "errors": (
        "ApiError",
        "ConfigurationError",
        "Conflict",
        "ConnectionFailed",
        "DownloadNotSaved",
        "Forbidden",
        "InvalidIdempotencyKey",
        "InvalidRequest",
        "LeadError",
        "MalformedResponse",
        "NotFound",
        "RateLimited",
        "Redirected",
        "RequestTimeout",
        "ServerError",
        "TransportError",
        "Unauthorized",
    ),
    "keys": (
        "api_key_problem",
        "idempotency_key_problem",
        "mask_key",
        "new_idempotency_key",
        "short_key",
    ),
    "models": (
        "CustomDownloadRequest",
        "Export",
        "ExportRequest",
        "Extraction",
        "ExtractionAction",
        "ExtractionDraft",
        "ExtractionRequest",
        "Identity",
        "Lead",
        "Page",
        "Record",
        "Search",
        "SearchItem",
        "SearchRequest",
        "Usage",
    ),
    "urls": ("validate_base_url",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "ApiError",
    "ConfigurationError",
    "Conflict",
    "ConnectionFailed",
    "CustomDownloadRequest",
    "DownloadNotSaved",
    "Export",
    "ExportRequest",
    "Extraction",
    "ExtractionAction",
    "ExtractionDraft",
    "ExtractionRequest",
    "Forbidden",
    "Identity",
    "InvalidIdempotencyKey",
    "InvalidRequest",
    "Lead",
    "LeadClient",
    "LeadError",
    "MalformedResponse",
    "NotFound",
    "Page",
    "RateLimited",
    "Record",
    "Redirected",
    "RequestTimeout",
    "Search",
    "SearchItem",
    "SearchRequest",
    "ServerError",
    "TransportError",
    "Unauthorized",
    "Usage",
    "api_key_problem",
    "idempotency_key_problem",
    "mask_key",
    "new_idempotency_key",
    "short_key",
    "validate_base_url",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
