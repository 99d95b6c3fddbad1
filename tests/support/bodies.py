"""Request bodies the sandbox takes, for tests that need a search or an extraction to exist."""

from __future__ import annotations

from typing import Any, Final

SEARCH: Final[dict[str, Any]] = {
    "activities": [{"name": "Plumber"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
EXTRACTION: Final[dict[str, Any]] = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Lyon"],
    "enrichment_sources": ["website"],
}
