"""Running one scriptable command: output format, client, errors → exit codes, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
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
from leadtui.cli.failures import CliFailure, from_lead_error, usage_failure  # noqa: E402
from leadtui.cli.output import Format, Output  # noqa: E402
from leadtui.cli.runtime import CliDeps, Context  # noqa: E402

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


async def _run(ctx: Context, handler: Handler) -> int:
    try:
        ctx.resolved  # noqa: B018  a mistyped --profile stops every command before it runs
        return await handler(ctx)
    finally:
        await ctx.aclose()


def run(ns: argparse.Namespace, deps: CliDeps | None = None) -> int:
    """Run the command `ns.runs` names; every failure becomes its error document and exit."""
    from leadtui.config.errors import ConfigError
    from leadtui.config.profile import UnknownProfile
    from leadtui.config.secrets import KeyStoreError

    deps = deps or CliDeps()
    out = Output.build(
        deps.stdout, deps.stderr, output_format(ns), json_asked=bool(ns.json or ns.jsonl)
    )
    ctx = Context(ns, deps, out)
    try:
        return asyncio.run(_run(ctx, _handler(ns.runs)))
    except CliFailure as failure:
        return _report(out, failure)
    except LeadError as error:
        return _report(out, from_lead_error(error))
    except UnknownProfile as error:
        return _report(out, CliFailure(error.code, f"{error}. Nothing was sent.", Exit.USAGE))
    except ConfigError as error:  # settings, LEADTUI_* variables, a key that cannot be sent
        return _report(out, usage_failure(f"{error}. Nothing was sent."))
    except KeyStoreError as error:
        return _report(out, CliFailure(NOT_SIGNED_IN, str(error), Exit.AUTH))
    except BrokenPipeError:
        return _quiet_after_closed_pipe(out.stdout)
    except KeyboardInterrupt:
        out.info("Interrupted. A spend already sent stays pending: see `leadtui pending list`.")
        return Exit.INTERRUPTED
    except Exception as error:  # the promise: no traceback ever reaches a user
        return _report(
            out, CliFailure(UNEXPECTED, f"{type(error).__name__}: {error}", Exit.UNEXPECTED)
        )


def _report(out: Output, failure: CliFailure) -> int:
    try:
        out.failure(failure)
    except BrokenPipeError:
        return _quiet_after_closed_pipe(out.stdout)
    return int(failure.exit)


def _quiet_after_closed_pipe(stdout: TextIO) -> int:
    """The reader went away (`| head`): stop quietly. The process's own stdout is pointed at
    /dev/null, or Python complains while flushing it at exit."""
    if stdout is sys.__stdout__:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stdout.fileno())
        except (OSError, ValueError):
            pass
    return Exit.OK


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
    out = Output.build(deps.stdout, deps.stderr, "json" if machine else "table")
    failure = usage_failure(message, hint="`leadtui --help` lists the commands and options.")
    if not machine:
        deps.stderr.write(f"{message}\n{failure.hint}\n")
        return int(Exit.USAGE)
    return _report(out, failure)
