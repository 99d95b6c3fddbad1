"""Running one scriptable command: output format, client, errors → exit codes, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import re
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TextIO, cast

# httpx imports its own command line (click, pygments) whenever click is installed; these
# commands never run it. Must come before the first import of httpx (below).
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

from leadtui.api.errors import LeadError  # noqa: E402
from leadtui.api.guidance import NOT_SIGNED_IN, UNEXPECTED  # noqa: E402
from leadtui.cli.exit_codes import Exit  # noqa: E402
from leadtui.cli.failures import (  # noqa: E402
    CliFailure,
    from_lead_error,
    next_step,
    nothing_sent,
    usage_failure,
)
from leadtui.cli.output import Format, Output, stdout_closed, stdout_lost  # noqa: E402
from leadtui.cli.runtime import CliDeps, Context  # noqa: E402
from leadtui.spend.errors import Code  # noqa: E402

Handler = Callable[[Context], Awaitable[int]]


def output_format(ns: argparse.Namespace) -> Format:
    chosen = getattr(ns, "format", None)
    if chosen:
        return cast("Format", chosen)
    if ns.json:
        return "json"
    if ns.jsonl:
        return "jsonl"
    return "table"


def _handler(runs: str) -> Handler:
    module, function = runs.split(":")
    loaded = importlib.import_module(f"leadtui.cli.commands.{module}")
    return cast("Handler", getattr(loaded, function))


# The commands that use the state folder (the spend journal, the digest's marks): it is made,
# or tightened, to 0700 first.
_STATE_COMMANDS = frozenset(
    {"unlock:run", "extractions:create", "extractions:launch"}
    | {"pending:list_pending", "pending:resend", "pending:discard", "digest:show"}
)


async def _run(ctx: Context, handler: Handler) -> int:
    try:
        ctx.resolved  # noqa: B018  a mistyped --profile stops every command before it runs
        if ctx.ns.runs in _STATE_COMMANDS:
            ctx.private_state_dir()
        return await handler(ctx)
    finally:
        await ctx.aclose()


def run(ns: argparse.Namespace, deps: CliDeps | None = None) -> int:
    """Run the command `ns.runs` names; every failure becomes its error document and exit."""
    deps = deps or CliDeps()
    if deps.stdout is None:  # started with stdout closed (`>&-`): nowhere to answer
        return stdout_closed(deps.stderr)
    out = Output(deps.stdout, deps.stderr, output_format(ns), json_asked=bool(ns.json or ns.jsonl))
    ctx = Context(ns, deps, out)
    try:
        outcome = _failure_of(ctx)
        if isinstance(outcome, CliFailure):
            _with_next_step(ctx, outcome)
            out.failure(outcome)
            return int(outcome.exit)
        return outcome
    except OSError as error:
        return stdout_lost(out.stdout, out.stderr, error)


def _failure_of(ctx: Context) -> CliFailure | int:
    from leadtui.config.errors import ConfigError
    from leadtui.config.profile import UnknownProfile
    from leadtui.config.secrets import KeyStoreError

    try:
        return asyncio.run(_run(ctx, _handler(ctx.ns.runs)))
    except CliFailure as failure:
        return failure
    except LeadError as error:
        return from_lead_error(error)
    except UnknownProfile as error:
        return CliFailure(error.code, nothing_sent(str(error)), Exit.USAGE)
    except ConfigError as error:  # settings, LEADTUI_* variables, a key that cannot be sent
        return usage_failure(nothing_sent(str(error)))
    except KeyStoreError as error:
        return CliFailure(NOT_SIGNED_IN, str(error), Exit.AUTH)
    except KeyboardInterrupt:
        return CliFailure(Code.INTERRUPTED, "Interrupted.", Exit.INTERRUPTED)
    except BrokenPipeError:
        raise  # the reader went away: see `stdout_lost`
    except Exception as error:  # the promise: no traceback ever reaches a user
        if isinstance(error, OSError) and _stdout_broken(ctx.out.stdout):
            raise  # standard output itself failed: see `stdout_lost`
        return CliFailure(UNEXPECTED, f"{type(error).__name__}: {error}", Exit.UNEXPECTED)


# The refusals a person could have said yes to, had they been asked.
_ASKABLE = frozenset({Code.CONFIRMATION_REQUIRED, Code.OVER_BUDGET, Code.PRICE_UNKNOWN})


def _with_next_step(ctx: Context, outcome: CliFailure) -> None:
    """A failure with no hint of its own gets its code's next step. A person at a terminal
    who was not asked (--json, --no-input) is told what kept them from it, not sent to one."""
    if outcome.code in _ASKABLE and ctx.deps.interactive():
        from leadtui.cli.spending import no_input

        flags = (("--json", ctx.out.machine), ("--no-input", no_input(ctx)))
        kept = [flag for flag, on in flags if on]
        if kept:
            outcome.hint = _unasked_hint(outcome, " and ".join(kept))
    if outcome.hint is None:
        outcome.hint = next_step(outcome.code)


def _unasked_hint(failure: CliFailure, kept: str) -> str:
    quote = failure.details.get("quote") or {}
    if failure.code == Code.PRICE_UNKNOWN:
        return f"Rerun without {kept} to be asked to confirm the estimate."
    if quote.get("unit") == "launch":
        return f"Rerun with --max-launches 1 (or --yes), or without {kept} to be asked."
    total = quote.get("total", "C")
    return f"Rerun with --max-credits {total} (or more), or without {kept} to be asked."


def _stdout_broken(stdout: TextIO) -> bool:
    """Standard output cannot take what is written (closed pipe, full disk): a flush fails."""
    try:
        stdout.flush()
    except (OSError, ValueError):
        return True
    return False


# What may be echoed from the command line: an option's name, or a plain word (a command or a
# verb, mistyped or not). Anything else could be a value, and a value could be a key.
_FLAG = re.compile(r"-{1,2}[A-Za-z][A-Za-z0-9-]*")
_WORD = re.compile(r"[a-z][a-z-]{0,29}")
HIDDEN = "…"


def without_values(message: str, argv: Sequence[str]) -> str:
    """argparse's message with every value from `argv` replaced by `…` (`--api-key=…`)."""
    for token in sorted(set(argv), key=len, reverse=True):
        if _FLAG.fullmatch(token) or _WORD.fullmatch(token):
            continue
        flag, equals, _ = token.partition("=")
        shown = f"{flag}={HIDDEN}" if equals and _FLAG.fullmatch(flag) else HIDDEN
        message = re.sub(rf"(?<![^\s'\"]){re.escape(token)}(?![^\s'\",])", shown, message)
    return message


def report_usage_error(message: str, argv: Sequence[str], deps: CliDeps | None) -> int:
    """argparse's refusal, as JSON when --json or --jsonl was asked for; values typed on the
    command line are never echoed (see `without_values`)."""
    message = without_values(message, argv)
    deps = deps or CliDeps()
    machine = "--json" in argv or "--jsonl" in argv
    if machine and deps.stdout is None:  # stdout closed (`>&-`): the document has no place
        return stdout_closed(deps.stderr)
    out = Output(deps.stdout, deps.stderr, "json" if machine else "table")
    failure = usage_failure(message, hint="`leadtui --help` lists the commands and options.")
    if not machine:  # at a terminal, the hint on a line of its own; in a log, one line
        between = "\n" if out.tty else " "
        deps.stderr.write(f"{message}{between}{failure.hint}\n")
        return int(Exit.USAGE)
    try:
        out.failure(failure)
    except OSError as error:
        return stdout_lost(out.stdout, out.stderr, error)
    return int(Exit.USAGE)
