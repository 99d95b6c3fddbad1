"""What `--help` shows below each command's options: an example, and for the commands that
take a request body, its members, where a user writing one needs them.

Plain strings: building them imports nothing heavy (no pydantic), so start-up stays cheap.
tests/cli/test_help.py holds the members and bounds named here to the request models.
"""

from __future__ import annotations

import textwrap
from typing import Final

from leadtui.api.contract import LEAD_COLUMNS

SEARCH_REQUEST: Final = """\
the SearchRequest (JSON; optional members are left out, never null):
  activities       1 to 100 items, each {"name": ...} (name: at most 160 characters),
  countries        with optional "queryNames" (at most 30), "localisationType" and
  localisations    "localisationIdentifiers" (at most 200)
  result_filter    optional: an object, as the service defines it"""

EXTRACTION_REQUEST: Final = """\
the ExtractionRequest (JSON; optional members are left out, never null):
  categories          list of text (required)
  countries           list of text (required)
  localisations       list of text (required)
  enrichment_sources  list of text (required)
  urls                optional: list of http(s) URLs
  serp_config         optional: an object"""

DRAFT_REQUEST: Final = EXTRACTION_REQUEST.replace(
    "the ExtractionRequest (JSON;", "any members of the ExtractionRequest (JSON;"
)

CUSTOM_COLUMNS: Final = "authorized columns (a lead's fields):\n" + textwrap.fill(
    ", ".join(LEAD_COLUMNS), width=78, initial_indent="  ", subsequent_indent="  "
)

# By the `runs` of each command (module:function): one line a script could start from.
EXAMPLES: Final[dict[str, str]] = {
    "account:show": "leadtui account --json | jq .credits",
    "account:usage": "leadtui usage --json | jq '.daily[-1]'",
    "searches:list_searches": "leadtui searches list --all --jsonl",
    "searches:get": "leadtui searches get srch_000005 --json",
    "searches:create": (
        'echo \'{"activities": [{"name": "Bakery"}], "countries": [{"name": "France"}], '
        '"localisations": [{"name": "Paris"}]}\' | leadtui searches create --file - --json'
    ),
    "searches:results": "leadtui searches results srch_000005 --all --format csv -o leads.csv",
    "unlock:run": (
        "leadtui unlock srch_000005 --results 200 --max-credits 200 "
        "--idempotency-key nightly-$(date +%F) --wait --download ~/leads/"
    ),
    "digest:show": "leadtui digest --since 24h --json | jq .spent",
    "exports:list_exports": "leadtui exports list --limit 10",
    "exports:get": "leadtui exports get exp_000012 --json | jq .status",
    "exports:results": "leadtui exports results exp_000012 --all --jsonl > leads.jsonl",
    "exports:retry": "leadtui exports retry exp_000012 --json",
    "exports:download": "leadtui exports download exp_000012 -o ~/leads/",
    "exports:custom_download": (
        "leadtui exports custom-download exp_000012 --columns company,city,phone -o ~/leads/"
    ),
    "exports:wait": "leadtui exports wait exp_000012 --timeout 1800 --json",
    "extractions:list_extractions": "leadtui extractions list --json",
    "extractions:get": "leadtui extractions get ext_000003",
    "extractions:draft": "leadtui extractions draft --file draft.json --json",
    "extractions:update": "leadtui extractions update ext_000003 --file changes.json",
    "extractions:create": "leadtui extractions create --file extraction.json --yes --json",
    "extractions:launch": "leadtui extractions launch ext_000003 --yes",
    "extractions:pause": "leadtui extractions pause ext_000003",
    "extractions:resume": "leadtui extractions resume ext_000003",
    "extractions:stop": "leadtui extractions stop ext_000003 --json",
    "extractions:results": "leadtui extractions results ext_000003 --all --format csv -o out.csv",
    "extractions:wait": "leadtui extractions wait ext_000003 --timeout 3600",
    "pending:list_pending": "leadtui pending list --jsonl",
    "pending:resend": "leadtui pending resend 3f2a9c1e",
    "pending:discard": "leadtui pending discard 3f2a9c1e",
    "sandbox": "leadtui sandbox --port 8123 --demo-data --fault-rate 0.1",
    "login": "leadtui login --profile work --base-url https://api.example.com",
    "logout": "leadtui logout --profile work",
    "auth:status": "leadtui auth status --profile work",
    "completion": 'eval "$(leadtui completion bash)"',
    "mcp": "leadtui mcp --profile work --max-credits 500 --approve-in-app --approval-timeout 300",
}

# The request body a command reads from --file, shown after its example.
BODIES: Final[dict[str, str]] = {
    "searches:create": SEARCH_REQUEST,
    "extractions:create": EXTRACTION_REQUEST,
    "extractions:draft": DRAFT_REQUEST,
    "extractions:update": DRAFT_REQUEST,
    "exports:custom_download": CUSTOM_COLUMNS,
}


def epilog(runs: str) -> str | None:
    """The text below a command's options: its request body's members, then an example."""
    parts = [BODIES[runs]] if runs in BODIES else []
    if runs in EXAMPLES:
        parts.append(f"example:\n  {EXAMPLES[runs]}")
    return "\n\n".join(parts) or None
