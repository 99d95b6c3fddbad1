"""How hard the client tries: retries, their backoff, and the longest Retry-After it waits."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try. `max_retries` counts retries, so attempts = max_retries + 1."""

    max_retries: int = 3
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    # A longer Retry-After is raised to the caller (with `.retry_after`) rather than slept.
    max_retry_after: float = 60.0

    def backoff(self, retry_number: int) -> float:
        """Full jitter: uniform in [0, min(cap, base * 2^n)]."""
        ceiling = min(self.backoff_cap, self.backoff_base * (2**retry_number))
        return random.uniform(0.0, ceiling)
