"""One table of spend scenarios, run through the decision, the command line and the app: all
three must agree on every row.

Each row arranges the sandbox (the price it states, the balance, launches left) and the
journal (budget spent by another process, an observed price, a pending identical spend, a key
used before), then says what a person at the app meets (`app`: a person can be asked, no
ceiling) and what a script meets (`script`: `--json`, nobody to ask, with the row's
`--max-credits`). A verdict "ask" unattended is a refusal with the same code.

The rows about what was authorized against what is sent and debited (a price raised after the
yes, a server that states a lower debit than it took, a cancel mid-POST then a resend under an
allowance, the same key from two processes) move the sandbox in the middle of a spend: they
are `test_authorized_spend.py` here and `test_spend_authorized.py` beside each surface's tests
(tests/cli, tests/ui, tests/mcp_tools), each checking the request log and the balance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from leadtui.api.contract import API_PREFIX
from leadtui.spend.account import SpendAccount
from leadtui.spend.decision import Authorization, Decision, Surface
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal, default_journal_path
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest

ORIGIN = "http://127.0.0.1"
DEMO = SpendAccount("…full", "acct_demo", "Demo Co")
REUSED_KEY = "scenario-key-1"
SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
DRAFT = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}
Outcome = tuple[str, str | None]
"""(verdict, code): ("send", None), ("ask", "price_unknown"), ("refuse", "read_only")…"""


@dataclass(frozen=True)
class Row:
    name: str
    app: Outcome
    script: Outcome
    results: int = 5
    stated: object = 1
    omit_price: bool = False
    observed: int | None = None
    """A settled unlock of this account was debited this much per result."""
    credits: int | None = None
    budget: int = 0
    used_elsewhere: int = 0
    """Credits another process spent within the budget in the last 24 hours."""
    ceiling: int | None = None
    read_only: bool = False
    launch: bool = False
    launches_left: int | None = None
    pending_same: bool = False
    reused_key: str | None = None
    """"same": the key settled this very spend before; "other": another spend."""

    def authorization(self, *, attended: bool) -> Authorization:
        if attended:
            return Authorization(Surface.APP)
        return Authorization(Surface.CLI, ceiling=self.ceiling, can_ask=False)

    @property
    def key(self) -> str | None:
        return REUSED_KEY if self.reused_key else None


ASKED = ("ask", "confirmation_required")
NOT_AUTHORIZED = ("refuse", "confirmation_required")
PRICE_ASKED = ("ask", "price_unknown")
PRICE_REFUSED = ("refuse", "price_unknown")

ROWS = [
    Row("stated price, nothing set in advance", ASKED, NOT_AUTHORIZED),
    Row("stated price, ceiling covering", ASKED, ("send", None), ceiling=5),
    Row("stated price, ceiling short", ASKED, ("refuse", "over_ceiling"), ceiling=4),
    Row("price missing", PRICE_ASKED, PRICE_REFUSED, omit_price=True, ceiling=50),
    Row("price 0", PRICE_ASKED, PRICE_REFUSED, stated=0, budget=100),
    Row("price -1", PRICE_ASKED, PRICE_REFUSED, stated=-1, budget=100, ceiling=50),
    Row("price true", PRICE_ASKED, PRICE_REFUSED, stated=True, budget=100),
    Row('price "5"', PRICE_ASKED, PRICE_REFUSED, stated="5", budget=100, ceiling=50),
    Row("price observed", ("send", None), ("send", None), omit_price=True, observed=2, budget=10),
    Row(
        "balance short",
        ("refuse", "insufficient_credits"),
        ("refuse", "insufficient_credits"),
        credits=3,
        ceiling=10,
    ),
    Row("budget covering", ("send", None), ("send", None), budget=10),
    Row(
        "budget used up in 24 h by another process",
        ("ask", "over_budget"),
        ("refuse", "over_budget"),
        budget=10,
        used_elsewhere=8,
    ),
    Row("read-only", ("refuse", "read_only"), ("refuse", "read_only"), read_only=True, ceiling=10),
    Row(
        "no launches left",
        ("refuse", "no_launches_left"),
        ("refuse", "no_launches_left"),
        launch=True,
        launches_left=0,
    ),
    Row("launches left", ASKED, NOT_AUTHORIZED, launch=True, launches_left=3),
    Row(
        "a pending identical spend",
        ("refuse", "pending_same_spend"),
        ("refuse", "pending_same_spend"),
        pending_same=True,
        ceiling=10,
    ),
    Row(
        "the key reused for this spend",
        ("send", None),
        ("send", None),
        reused_key="same",
        ceiling=5,
    ),
    Row(
        "the key reused for another spend",
        ("refuse", "idempotency_conflict"),
        ("refuse", "idempotency_conflict"),
        reused_key="other",
        ceiling=10,
    ),
]
IDS = [row.name for row in ROWS]


@dataclass(frozen=True)
class Arranged:
    target: str
    """The search to unlock, or the draft to launch."""


async def arrange(row: Row, http: httpx.AsyncClient) -> Arranged:
    """The sandbox and the journal as the row says (the journal at its default path)."""
    pricing: dict[str, Any] = {"omit_stated": row.omit_price, "charged": row.observed or 1}
    if not row.omit_price:
        pricing["stated"] = row.stated
    (await http.put("/_sandbox/pricing", json=pricing)).raise_for_status()
    account: dict[str, Any] = {}
    if row.credits is not None:
        account["credits"] = row.credits
    if row.launches_left is not None:
        used = (await http.patch("/_sandbox/accounts/acct_demo", json={})).json()["data"]
        account["extraction_quota"] = int(used["launches_used"]) + row.launches_left
    (await http.patch("/_sandbox/accounts/acct_demo", json=account)).raise_for_status()
    auth = {"Authorization": "Bearer sk_demo_full"}
    if row.launch:
        made = await http.post(f"{API_PREFIX}/extractions/drafts", json=DRAFT, headers=auth)
        return Arranged(str(made.json()["data"]["extractionId"]))
    made = await http.post(f"{API_PREFIX}/searches", json=SEARCH, headers=auth)
    search_id = str(made.json()["data"]["searchId"])
    _journal(row, search_id)
    return Arranged(search_id)


def _unlock(journal: SpendJournal, key: str, search_id: str, results: int, **kw: Any) -> None:
    journal.record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": search_id, "additional_results": results},
        body={"additional_results": results},
        amount=results,
        profile="default",
        origin=ORIGIN,
        account=DEMO,
        **kw,
    )


def _settle(journal: SpendJournal, key: str, debited: int | None = None) -> None:
    record = {"exportId": f"exp_{key}", "status": "queued"}
    detail = {"id": record["exportId"], "status": "queued", "record": record}
    journal.record_outcome(key, SpendOutcome.SUCCEEDED, detail, attempts=1)
    if debited is not None:
        journal.record_debit(key, debited)


def _journal(row: Row, search_id: str) -> None:
    journal = SpendJournal(default_journal_path())
    if row.used_elsewhere:
        _unlock(
            journal,
            "elsewhere",
            "srch_elsewhere",
            row.used_elsewhere,
            surface="cli",
            authorized_by="budget",
        )
        _settle(journal, "elsewhere")
    if row.observed is not None:
        _unlock(journal, "observed", "srch_observed", 4, surface="app")
        _settle(journal, "observed", debited=4 * row.observed)
    if row.pending_same:
        _unlock(journal, "pending-same", search_id, row.results, surface="cli")
    if row.reused_key == "same":
        _unlock(journal, REUSED_KEY, search_id, row.results, surface="cli")
        _settle(journal, REUSED_KEY)
    elif row.reused_key == "other":
        _unlock(journal, REUSED_KEY, search_id, row.results + 1, surface="cli")
        _settle(journal, REUSED_KEY)


def spend_posts(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The requests that spend, in the sandbox's request log."""
    return [
        r
        for r in log
        if r["method"] == "POST"
        and (r["path"].endswith("/exports") or r["path"].endswith("/launch"))
    ]


async def request_for(row: Row, arranged: Arranged, client: Any) -> SpendRequest:
    """The spend the row is about, as a surface builds it (quoted from the search record)."""
    if row.launch:
        quote = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, arranged.target, None)
        return SpendRequest.for_launch(quote, arranged.target, row.key)
    search = await client.searches.get(arranged.target)
    return SpendRequest.for_unlock(
        Quote.unlock(search, row.results, None), arranged.target, row.key
    )


def outcome_of(decision: Decision) -> Outcome:
    return decision.verdict.value, None if decision.code is None else decision.code.value
