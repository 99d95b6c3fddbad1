"""Command line: parse arguments, then hand over to the layer that does the work.

Everything heavy (Textual, the sandbox's FastAPI) is imported only on the path that needs it,
because start-up time is a goal of this project: the scriptable commands never load Textual.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NoReturn, TextIO

from leadtui import __version__
from leadtui.api.deadlines import MIN_STREAM_BYTES_PER_WINDOW, REQUEST_DEADLINE
from leadtui.cli.exit_codes import MEANINGS, Exit
from leadtui.cli.help_texts import epilog
from leadtui.cli.parser import (
    KEEP,
    add_profile,
    add_twin_commands,
    allowance,
    common_options,
    listed_only,
)
from leadtui.config.variables import VARIABLES

if TYPE_CHECKING:
    from leadtui.cli.runtime import CliDeps

DEMO_KEY = "sk_demo_full"


def _environment() -> str:
    """The variables as README lists them (one list: `config/variables.py`)."""
    rows = [(name, meaning.replace("`", "")) for name, meaning in VARIABLES.items()]
    rows.append(("NO_COLOR", "any value: no colour on stderr"))
    width = max(len(name) for name, _ in rows) + 2
    return "environment:\n" + "".join(f"  {name.ljust(width)}{said}\n" for name, said in rows)


_EPILOG = (
    _environment()
    + "\nexit codes (the commands for scripts):\n"
    + "\n".join(f"  {code:>3}  {meaning}" for code, meaning in MEANINGS.items())
    + "\n\nscripts: add --json for one JSON document on stdout (errors too), --jsonl for lines."
    + "\nA spend is sent only when authorized: a prompt at a terminal, --max-credits C, or the"
    + "\nprofile's spend_budget; otherwise exit 10 and nothing is sent."
    + f"\n\nnetwork: deadline: {REQUEST_DEADLINE:g} s per request, for connecting and the answer "
    + "over all\nits retries; a download's body must keep arriving, at least "
    + f"{MIN_STREAM_BYTES_PER_WINDOW // 1024} KiB every {REQUEST_DEADLINE:g} s."
)


class UsageError(Exception):
    """argparse refused the command line (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _documented(
    sub: argparse._SubParsersAction[_Parser],
    name: str,
    summary: str,
    description: str,
    example: str | None = None,
) -> _Parser:
    """A command with the example (and request body) of `example`, by default its name's."""
    return sub.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog(example or name),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


# Two of the sandbox's levers, which `leadtui --demo` takes for its own sandbox too.
_FAULT_RATE: Final = "share of API requests that fail (503, 502 or a cut connection), 0 to 1"
_LATENCY: Final = "delay added to every API request, in ms"


def _add_sandbox(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    sandbox = _documented(
        sub,
        "sandbox",
        summary,
        "Serve a local, stateful Lead Data API under /api/v1 until Ctrl-C, with demo keys "
        "and test levers under /_sandbox.",
    )
    sandbox.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    for flag, kind, value, said in (
        ("--port", int, 8000, "port"),
        ("--job-seconds", float, 5.0, "seconds an export takes to become ready"),
        ("--fault-rate", float, 0.0, _FAULT_RATE),
        ("--latency-ms", int, 0, _LATENCY),
    ):
        sandbox.add_argument(flag, type=kind, default=value, help=f"{said} (default: %(default)s)")
    sandbox.add_argument(
        "--db",
        metavar="FILE",
        help="SQLite file; state survives restarts (default: fresh, in memory)",
    )
    sandbox.add_argument(
        "--fault-seed",
        type=int,
        help="seed of the fault draw, for a repeatable run (default: random)",
    )
    sandbox.add_argument(
        "--demo-data",
        action="store_true",
        help="seed Demo Co's month of demo history (default: off)",
    )


def _add_login(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    login = _documented(
        sub, "login", summary, "Save an API key for a profile, after checking it with GET /me."
    )
    add_profile(login, KEEP)
    login.add_argument("--base-url", default=KEEP, help="API base URL, without /api/v1")
    login.add_argument(
        "--insecure-storage",
        action="store_true",
        help="store the key in a 0600 file when no OS keyring is available",
    )


def _add_logout(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    logout = _documented(
        sub, "logout", summary, "Forget the saved key of a profile (keyring and key file)."
    )
    add_profile(logout, KEEP)


def _add_auth(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    auth = sub.add_parser("auth", help=summary, description="Inspect authentication.")
    auth_sub = auth.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    status = _documented(
        auth_sub,
        "status",
        "which profile and key are used, and whether it works",
        "Which profile, server and key (masked) are used, the spend policy (and where its "
        "budget comes from), and whether the key works.",
        "auth:status",
    )
    add_profile(status, KEEP)
    status.add_argument(
        "--json", action="store_true", help="print exactly one JSON document on stdout"
    )


def _add_mcp(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    mcp = _documented(
        sub,
        "mcp",
        summary,
        "Serve the Lead Data API to an AI agent as Model Context Protocol tools over stdio "
        "(needs the mcp extra: pip install 'leadtui[mcp]'). A spend is sent only within "
        "the budget given here, or after the user accepts its quote when the agent's "
        "client can ask, or (with --approve-in-app) after the user approves it in the "
        "running leadtui app; otherwise nothing is sent.",
    )
    add_profile(mcp, KEEP)
    mcp.add_argument("--base-url", default=KEEP, help="API base URL, without /api/v1")
    mcp.add_argument(
        "--max-credits",
        type=allowance,
        default=0,
        metavar="N",
        help="credits the agent may spend without asking, in all: for as long as this server "
        "runs, every spend it sends counts from the moment it is journaled (at its quote until "
        "it settles, then at what was really debited; a cancelled and resent call once) "
        "(default: 0)",
    )
    mcp.add_argument(
        "--max-launches",
        type=allowance,
        default=0,
        metavar="M",
        help="extraction launches the agent may use without asking, in all, counted as "
        "--max-credits is (default: 0)",
    )
    mcp.add_argument(
        "--approve-in-app",
        action="store_true",
        help="when the agent's client cannot ask its user, a spend waits for a yes in the "
        'running app\'s Approvals screen (A) instead of being refused (also: approvals = "app" '
        "in the profile)",
    )
    mcp.add_argument(
        "--approval-timeout",
        type=float,
        metavar="S",
        help="how long a spend waits for the app's answer, at most 900 s (default 120)",
    )


def _add_completion(sub: argparse._SubParsersAction[_Parser], summary: str) -> None:
    completion = _documented(
        sub,
        "completion",
        summary,
        "Print a completion script for the shell: commands, verbs, options and their "
        "choices. Load it in the shell's start-up file.",
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell")


# The app's own commands: each one's summary (as `leadtui --help` lists it) and what builds
# the rest. The twin's commands follow them (see `parser.py`).
_COMMANDS: Final[
    dict[str, tuple[str, Callable[[argparse._SubParsersAction[_Parser], str], None]]]
] = {
    "sandbox": ("serve a local, stateful Lead Data API", _add_sandbox),
    "login": ("save a key for a profile (checked with GET /me)", _add_login),
    "logout": ("forget the saved key of a profile", _add_logout),
    "auth": ("inspect authentication", _add_auth),
    "mcp": ("serve tools to AI agents over stdio (Model Context Protocol)", _add_mcp),
    "completion": ("print shell completion for bash, zsh or fish", _add_completion),
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line; given `argv`, only the commands it names are built in full.

    Every command is listed (same `--help`, same choices in a usage error), but the options
    and verbs of one that `argv` does not name are left out: it cannot be the one parsed.
    """
    named = set(argv) if argv is not None else None

    def wanted(name: str) -> bool:
        return named is None or name in named

    parser = _Parser(
        prog="leadtui",
        description="A keyboard-driven terminal app for the Lead Data API (run without a command), "
        "and its command-line twin for scripts and agents.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common_options(top_level=True)],
    )
    parser.add_argument("--version", action="version", version=f"leadtui {__version__}")
    parser.add_argument(
        "--spec",
        action="store_true",
        help="print every command, option, exit code and JSON shape as one JSON document",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="start a local sandbox and open the app on its demo account (spends nothing real)",
    )
    for flag, dest, metavar, kind, said in (
        ("--latency-ms", "demo_latency_ms", "MS", int, _LATENCY),
        ("--fault-rate", "demo_fault_rate", "RATE", float, _FAULT_RATE),
    ):
        parser.add_argument(
            flag,
            dest=dest,
            metavar=metavar,
            type=kind,
            default=kind(0),
            help=f"with --demo: {said} (default: %(default)s)",
        )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (summary, build) in _COMMANDS.items():
        if wanted(name):
            build(sub, summary)
        else:
            listed_only(sub, name, summary)
    add_twin_commands(sub, wanted)
    return parser


def main(argv: Sequence[str] | None = None, deps: CliDeps | None = None) -> int:
    """Run `leadtui`; `deps` lets tests inject the transport, clock, streams and prompt."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        ns = build_parser(args).parse_args(args)
    except UsageError as exc:
        from leadtui.cli.twin import report_usage_error

        return report_usage_error(str(exc), args, deps)
    except SystemExit as done:  # --help, --version: printed; is it out?
        if _printing(deps, lambda _: 0) != 0:
            return Exit.WRITE_FAILED
        raise done from None
    if ns.spec or ns.command == "completion":
        return _printing(deps, lambda stdout: _describe_command_line(ns, stdout))
    if ns.command == "sandbox":
        return _with_extra("sandbox", "leadtui sandbox", lambda: _run("cli.sandbox", ns))
    if ns.command == "mcp":
        return _with_extra("mcp", "leadtui mcp", lambda: _run("mcp.command", ns))
    if ns.command in ("login", "logout", "auth"):
        from leadtui.cli import auth as auth_cli

        return _printing(deps, lambda _: auth_cli.run(ns))
    if getattr(ns, "runs", None):
        from leadtui.cli.twin import run as run_twin

        return run_twin(ns, deps)
    if not ns.demo and (ns.demo_latency_ms or ns.demo_fault_rate):
        print("leadtui: --latency-ms and --fault-rate go with --demo", file=sys.stderr)
        return 2
    # The app's start-up allocates much and frees little: the cyclic collector waits until the
    # settings and the client are loaded (ui/frame/sessions.py). Without this, side by side in
    # bench/bench_startup.py (medians of 9), the first frame took 1.22x the CPU and the
    # balance on screen 1.23x.
    gc.disable()
    if ns.demo:
        return _with_extra("sandbox", "leadtui --demo", lambda: _run_demo(ns))
    from leadtui.ui.frame.launch import run as run_tui

    return run_tui(ns)


# The optional extras (pyproject.toml) and the top-level modules each one brings.
_EXTRAS: Final = {"sandbox": ("fastapi", "uvicorn", "faker", "starlette"), "mcp": ("mcp",)}


def _with_extra(extra: str, command: str, run: Callable[[], int]) -> int:
    """`run()`, or one line naming the extra to install when its modules are missing (exit 2)."""
    try:
        return run()
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in _EXTRAS[extra]:
            raise
        print(f"{command} needs the {extra} extra: pip install 'leadtui[{extra}]'", file=sys.stderr)
        return int(Exit.USAGE)


def _run(module: str, ns: argparse.Namespace) -> int:
    """`run(ns)` of `leadtui.MODULE`, imported only now (its extra may be missing)."""
    run: Callable[[argparse.Namespace], int] = importlib.import_module(f"leadtui.{module}").run
    return run(ns)


def _printing(deps: CliDeps | None, run: Callable[[TextIO], int]) -> int:
    """`run(stdout)` for a command that prints on the process's stdout, then flushed: a closed
    or full stdout is one line and exit 11, never a traceback."""
    from leadtui.cli.output import stdout_closed, stdout_lost

    stdout = deps.stdout if deps is not None else sys.stdout
    stderr = deps.stderr if deps is not None else sys.stderr
    if stdout is None:
        return stdout_closed(stderr)
    try:
        code = run(stdout)
        stdout.flush()
    except OSError as error:
        return stdout_lost(stdout, stderr, error)
    return code


def _describe_command_line(ns: argparse.Namespace, stdout: TextIO) -> int:
    """`--spec` or `completion SHELL`: both read the whole parser, built for them."""
    parser = build_parser()
    if ns.spec:
        from leadtui.cli.spec import print_spec

        return print_spec(parser, stdout)
    from leadtui.cli.completion import script

    stdout.write(script(ns.shell, parser))
    return 0


def _run_demo(ns: argparse.Namespace) -> int:
    # Only the command line starts the sandbox: the UI never imports it.
    from leadtui.cli.sandbox import demo_config, fault_rate_problem
    from leadtui.sandbox.embedded import EmbeddedSandbox
    from leadtui.ui.frame.launch import run as run_tui

    problem = fault_rate_problem(ns.demo_fault_rate)
    if problem is not None:
        print(f"leadtui: {problem}", file=sys.stderr)
        return 2
    with EmbeddedSandbox(demo_config(ns)) as sandbox:
        return run_tui(ns, demo_base_url=sandbox.base_url, demo_key=DEMO_KEY)


if __name__ == "__main__":
    sys.exit(main())
