"""Lead records, generated deterministically per (source, index) and fast.

Faker builds seeded value pools once; each lead combines pool entries picked by a cheap
64-bit mix of the source's seed and the index, so 50,000 leads take well under a second and
nothing is stored per unlock.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import Any

_POOL_SIZE = 1024  # a power of two, so picking an entry is a mask
_POOL_MASK = _POOL_SIZE - 1
_MASK64 = (1 << 64) - 1
_FAKER_SEED = 20_240_501


@dataclass(frozen=True)
class _Pools:
    companies: tuple[str, ...]
    slugs: tuple[str, ...]
    streets: tuple[str, ...]
    postcodes: tuple[str, ...]
    cities: tuple[str, ...]
    phones: tuple[str, ...]
    first_names: tuple[str, ...]
    tlds: tuple[str, ...]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "company"


# Built once, on the first lead (seeded: a second build in a race gives the same pools).
@functools.cache
def _pools() -> _Pools:
    from faker import Faker  # only when a sandbox generates leads

    fake = Faker("en_US")
    fake.seed_instance(_FAKER_SEED)
    companies = tuple(fake.company() for _ in range(_POOL_SIZE))
    return _Pools(
        companies=companies,
        slugs=tuple(_slug(name) for name in companies),
        streets=tuple(fake.street_address() for _ in range(_POOL_SIZE)),
        postcodes=tuple(fake.postcode() for _ in range(_POOL_SIZE)),
        cities=tuple(fake.city() for _ in range(_POOL_SIZE)),
        phones=tuple(fake.phone_number() for _ in range(_POOL_SIZE)),
        first_names=tuple(fake.first_name().lower() for _ in range(_POOL_SIZE)),
        tlds=("com", "net", "biz", "co", "io", "org", "shop", "info"),
    )


def seed_of(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _mix(value: int) -> int:
    # splitmix64: a cheap, well-distributed hash of (seed + index).
    z = (value + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


@dataclass(frozen=True)
class LeadSource:
    """Where leads come from: a search or an extraction, with the names it asked for."""

    source_id: str
    activities: tuple[str, ...]
    countries: tuple[str, ...]
    cities: tuple[str, ...]


def generate(source: LeadSource, start: int, stop: int) -> list[dict[str, Any]]:
    """Leads `start` (inclusive) to `stop` (exclusive) of a source; same input, same leads."""
    pools = _pools()
    seed = seed_of(source.source_id)
    activities = source.activities or ("Business",)
    countries = source.countries or ("United States",)
    cities = source.cities
    out = []
    for index in range(start, stop):
        h = _mix(seed + index)
        h2 = _mix(h)
        company_i = h & _POOL_MASK
        city = cities[(h >> 40) % len(cities)] if cities else pools.cities[(h >> 40) & _POOL_MASK]
        slug = pools.slugs[company_i]
        tld = pools.tlds[(h2 >> 50) & 7]
        domain = f"{slug}.{tld}"
        out.append(
            {
                "leadId": f"{source.source_id}-{index + 1:06d}",
                "company": pools.companies[company_i],
                "activity": activities[(h >> 10) % len(activities)],
                "address": pools.streets[(h >> 20) & _POOL_MASK],
                "postal_code": pools.postcodes[(h >> 30) & _POOL_MASK],
                "city": city,
                "country": countries[(h >> 48) % len(countries)],
                "phone": pools.phones[h2 & _POOL_MASK],
                "email": f"{pools.first_names[(h2 >> 10) & _POOL_MASK]}@{domain}",
                "website": f"https://www.{domain}",
                "rating": round(1.0 + ((h2 >> 20) % 41) / 10, 1),
                "reviews_count": (h2 >> 30) % 2000,
                "latitude": round(((h2 >> 8) % 1_800_000) / 10_000 - 90, 4),
                "longitude": round(((h2 >> 28) % 3_600_000) / 10_000 - 180, 4),
            }
        )
    return out
