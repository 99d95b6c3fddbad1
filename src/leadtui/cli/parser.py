"""The scriptable twin's commands: `leadtui <resource> <verb> [--json]`.

Every command names the module and function that runs it; main imports that module only when
the command is run, so `leadtui account --json` loads neither Textual nor the other commands.
Nor are the other commands' options built: see `listed_only`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Final

from leadtui.cli.help_texts import epilog

# An option repeated after the subcommand must not reset the value given before it.
KEEP = argparse.SUPPRESS

# Adds one command, in full, to the subparsers given: (subparsers, its summary, --json & co).
TwinBuilder = Callable[[Any, str, argparse.ArgumentParser], None]


def common_options(*, top_level: bool) -> argparse.ArgumentParser:
    """--json, --jsonl, --profile, --base-url: accepted before or after the subcommand."""
    parent = argparse.ArgumentParser(add_help=False)
    default: Any = None if top_level else KEEP
    flag: Any = False if top_level else KEEP
    parent.add_argument(
        "--json",
        action="store_true",
        default=flag,
        help="print exactly one JSON document on stdout (errors too)",
    )
    parent.add_argument(
        "--jsonl", action="store_true", default=flag, help="print lists as one JSON item per line"
    )
    add_profile(parent, default)
    parent.add_argument("--base-url", default=default, help="API base URL, without /api/v1")
    return parent


def add_profile(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--profile", default=default, help="profile name (default: $LEADTUI_PROFILE or 'default')"
    )


def _whole_number(text: str, least: int, most: int | None, bounds: str) -> int:
    """`text` as a whole number from `least` to `most` (None: no upper bound), else refused by
    argparse (exit 2) with `bounds`, before anything is sent."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least or (most is not None and value > most):
        raise argparse.ArgumentTypeError(bounds)
    return value


def allowance(text: str) -> int:
    """--max-credits, --max-launches: 0 or more."""
    return _whole_number(text, 0, None, "must be 0 or more")


def _command(
    sub: Any, name: str, summary: str, runs: str, common: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=summary[:1].upper() + summary[1:] + ".",
        parents=[common],
        epilog=epilog(runs),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(runs=runs)
    return parser


def page_limit(text: str) -> int:
    """--limit within the spec's bounds."""
    from leadtui.api.models import PAGE_LIMIT_MAX, PAGE_LIMIT_MIN

    bounds = f"must be {PAGE_LIMIT_MIN} to {PAGE_LIMIT_MAX}"
    return _whole_number(text, PAGE_LIMIT_MIN, PAGE_LIMIT_MAX, bounds)


def wait_seconds(text: str) -> float:
    """--timeout: a number of seconds above zero (`-5`, `0`, `nan` and `inf` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("must be a number of seconds above 0")
    return value


def _paging(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--limit", type=page_limit, help="items per page, 1 to 100 (server default 25)"
    )
    parser.add_argument("--cursor", help="start at this page (a next_cursor printed before)")
    parser.add_argument("--all", action="store_true", help="follow next_cursor to the last page")


def _results(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID")
    _paging(parser)
    parser.add_argument(
        "--format",
        choices=("table", "json", "jsonl", "csv"),
        help="output format (default: table; json with --json, jsonl with --jsonl)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically)")


def _wait(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("id", metavar="ID")
    parser.add_argument(
        "--timeout",
        type=wait_seconds,
        default=600.0,
        help=f"give up after S seconds (default 600) {what}",
    )


def _spend_options(parser: argparse.ArgumentParser, *, credits: bool) -> None:
    if credits:
        parser.add_argument(
            "--max-credits",
            type=allowance,
            metavar="C",
            help="authorize up to C credits: sent only when the quote is at most C",
        )
    else:
        parser.add_argument(
            "--max-launches",
            type=allowance,
            metavar="N",
            help="authorize up to N launches: sent only when the spend consumes at most N",
        )
    parser.add_argument(
        "--yes",
        action="store_true",
        help=(
            "skip the prompt, within --max-credits"
            if credits
            else "consume the launch without a prompt"
        ),
    )
    parser.add_argument(
        "--idempotency-key",
        metavar="K",
        help="your key for this spend: the same key again returns the first outcome (never a "
        "second debit); with another request it is refused",
    )
    parser.add_argument(
        "--no-input",
        action="store_true",
        help="never prompt: what would be asked is refused, exit 10 (also LEADTUI_NO_INPUT=1)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the quote; send nothing that spends"
    )
    parser.add_argument(
        "--approve-in-app",
        action="store_true",
        help="with no terminal to ask at, wait for a yes in the running app's Approvals "
        'screen (A) instead of refusing (also: approvals = "app" in the profile)',
    )
    parser.add_argument(
        "--approval-timeout",
        type=float,
        metavar="S",
        help="how long to wait for the app's answer, at most 900 s (default 120)",
    )


def _id(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID")


def _file(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--file", required=True, metavar="FILE", help=f"{what} as JSON; - for stdin"
    )


Verb = Callable[..., argparse.ArgumentParser]


def _resource(
    sub: Any, name: str, summary: str, description: str, common: argparse.ArgumentParser
) -> Verb:
    """`leadtui NAME VERB ...`: adds one of NAME's verbs, `verb(VERB, summary)`, run by
    `commands/NAME.py`'s function of the verb's name (or the `function` given)."""
    parser = sub.add_parser(name, help=summary, description=description)
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    def verb(verb: str, said: str, function: str | None = None) -> argparse.ArgumentParser:
        runs = f"{name}:{function or verb.replace('-', '_')}"
        return _command(verbs, verb, said, runs, common)

    return verb


def _account(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    _command(sub, "account", summary, "account:show", common)


def _usage(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    _command(sub, "usage", summary, "account:usage", common)


def _searches(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    verb = _resource(sub, "searches", summary, "Searches and their unlocked results.", common)
    _paging(verb("list", "list the account's searches", "list_searches"))
    _id(verb("get", "one search with its result counts"))
    _file(verb("create", "create and count a search (no credits)"), "a SearchRequest")
    _results(verb("results", "the results already unlocked"))


def _unlock(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    unlock = _command(sub, "unlock", summary, "unlock:run", common)
    unlock.add_argument("search_id", metavar="SEARCH_ID")
    unlock.add_argument("--results", type=int, required=True, metavar="N", help="results to unlock")
    _spend_options(unlock, credits=True)
    unlock.add_argument(
        "--wait",
        action="store_true",
        help="then wait until the export is ready (exit 3 if it fails, 4 after --timeout)",
    )
    unlock.add_argument(
        "--timeout",
        type=wait_seconds,
        default=600.0,
        metavar="S",
        help="with --wait: give up after S seconds (default 600)",
    )
    unlock.add_argument(
        "--download",
        metavar="DIR",
        help="then save the ready export's ZIP in DIR (made when missing) as EXPORT_ID.zip, "
        "once: run again with the same --idempotency-key, it is found there (implies --wait)",
    )


def _exports(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    described = "Export jobs: follow them, read and download their leads, retry failures."
    verb = _resource(sub, "exports", summary, described, common)
    _paging(verb("list", "list export jobs, newest first", "list_exports"))
    _id(verb("get", "one export's status and progress"))
    _results(verb("results", "the leads of a ready export"))
    _id(verb("retry", "queue a failed export again (no credits)"))
    download = verb("download", "save a ready export's ZIP")
    _id(download)
    download.add_argument(
        "-o", "--output", metavar="PATH", help="file or folder (default: download_dir)"
    )
    custom = verb("custom-download", "save a ZIP of chosen columns")
    _id(custom)
    custom.add_argument(
        "--columns", required=True, help="comma-separated authorized columns (listed below)"
    )
    custom.add_argument(
        "--format",
        dest="archive_format",
        choices=("csv", "json"),
        default="csv",
        help="file format inside the ZIP (default: csv)",
    )
    custom.add_argument(
        "-o", "--output", metavar="PATH", help="file or folder (default: download_dir)"
    )
    _wait(verb("wait", "wait until an export is ready or failed"), "(exit 4)")


def _extractions(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    described = "Custom extractions: draft, launch, pause, resume, stop; read results."
    verb = _resource(sub, "extractions", summary, described, common)
    _paging(verb("list", "list extraction jobs", "list_extractions"))
    _id(verb("get", "one extraction's status"))
    _file(
        verb("draft", "save an editable draft (no launch)"),
        "a draft (any ExtractionRequest fields)",
    )
    update = verb("update", "change an editable draft")
    _id(update)
    _file(update, "the fields to change")
    create = verb("create", "create and launch an extraction (consumes a launch)")
    _file(create, "an ExtractionRequest")
    _spend_options(create, credits=False)
    launch = verb("launch", "launch a draft (consumes a launch)")
    _id(launch)
    _spend_options(launch, credits=False)
    _id(verb("pause", "pause a running extraction"))
    _id(verb("resume", "resume a paused extraction"))
    _id(verb("stop", "stop an extraction for good"))
    _results(verb("results", "an extraction's live or archived results"))
    _wait(verb("wait", "wait until an extraction completes, fails or stops"), "(exit 4)")


def _pending(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    # `leadtui pending` alone is `leadtui pending list`.
    parser = sub.add_parser(
        "pending",
        help=summary,
        parents=[common],
        description="The spend journal's intents with no known outcome (the same journal the "
        "app offers at start). Resending uses the same idempotency key: never a second debit. "
        "Without a verb: list.",
    )
    parser.set_defaults(runs="pending:list_pending", all=True)
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    listing = _command(
        verbs, "list", "this profile's pending spends", "pending:list_pending", common
    )
    listing.add_argument(
        "--all", action="store_true", help="every one (always: this list is never paged)"
    )
    resend = _command(
        verbs, "resend", "send a pending spend again, same key", "pending:resend", common
    )
    resend.add_argument("id", metavar="KEY", help="its idempotency key (or a unique prefix)")
    discard = _command(verbs, "discard", "stop offering a pending spend", "pending:discard", common)
    discard.add_argument("id", metavar="KEY", help="its idempotency key (or a unique prefix)")


def _digest(sub: Any, summary: str, common: argparse.ArgumentParser) -> None:
    digest = _command(sub, "digest", summary, "digest:show", common)
    digest.add_argument(
        "--since",
        metavar="DURATION|TIME",
        help="start of the window: 90m, 24h, 7d, or a UTC time such as 2026-11-26T08:00Z "
        "(default: when the app or the digest last looked for this profile)",
    )


# Each command: its one-line summary (as `leadtui --help` lists it) and what builds the rest;
# in the order `--help` lists them.
_TWIN_COMMANDS: Final[dict[str, tuple[str, TwinBuilder]]] = {
    "account": ("the account: credits, subscription, key, scopes", _account),
    "usage": ("30-day usage: requests and credits per day", _usage),
    "searches": ("list, read, create searches; read unlocked results", _searches),
    "unlock": ("unlock results of a search: spends credits, queues an export", _unlock),
    "exports": ("export jobs: list, wait, download, retry", _exports),
    "extractions": ("custom extractions: drafts, launches, pause, stop, results", _extractions),
    "pending": (
        "spends whose outcome is unknown: resend with the same key, or discard",
        _pending,
    ),
    "digest": ("what changed since a time: jobs settled, spends by surface, approvals", _digest),
}


def listed_only(sub: Any, name: str, summary: str) -> None:
    """`leadtui NAME` as `--help` and a usage error list it, and nothing more. A command not
    on the command line is never the one parsed, so its description, options and verbs need
    not be built: building every command took longer than the rest of argparse's work."""
    sub.add_parser(name, help=summary)


def add_twin_commands(sub: Any, wanted: Callable[[str], bool]) -> None:
    """The twin's commands; those not `wanted` only by name and summary (see `listed_only`)."""
    common = common_options(top_level=False)
    for name, (summary, build) in _TWIN_COMMANDS.items():
        if wanted(name):
            build(sub, summary, common)
        else:
            listed_only(sub, name, summary)
