"""Command line: parse arguments, then hand over to the layer that does the work.

Everything heavy (Textual, the sandbox's FastAPI) is imported only on the path that needs it,
because start-up time is a goal of this project.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from leadtui import __version__

DEMO_KEY = "sk_demo_full"


def _add_profile(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument(
        "--profile", default=default, help="profile name (default: $LEADTUI_PROFILE or 'default')"
    )


# Options repeated on a subcommand must not overwrite the same option given before it.
_KEEP_TOP_LEVEL = argparse.SUPPRESS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="leadtui",
        description="A keyboard-driven terminal app for the Lead Data API.",
    )
    parser.add_argument("--version", action="version", version=f"leadtui {__version__}")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="start a local sandbox and open the app on its demo account (spends nothing real)",
    )
    _add_profile(parser)
    parser.add_argument("--base-url", help="API base URL, without /api/v1")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sandbox = sub.add_parser("sandbox", help="serve a local, stateful Lead Data API")
    sandbox.add_argument("--host", default="127.0.0.1")
    sandbox.add_argument("--port", type=int, default=8000)
    sandbox.add_argument("--db", help="SQLite file; state survives restarts (default: fresh)")
    sandbox.add_argument("--job-seconds", type=float, default=5.0)
    sandbox.add_argument("--fault-rate", type=float, default=0.0)
    sandbox.add_argument("--fault-seed", type=int, default=None)
    sandbox.add_argument("--latency-ms", type=int, default=0)
    sandbox.add_argument("--demo-data", action="store_true", help="seed Demo Co's demo history")

    login = sub.add_parser("login", help="save a key for a profile (checked with GET /me)")
    _add_profile(login, _KEEP_TOP_LEVEL)
    login.add_argument("--base-url", default=_KEEP_TOP_LEVEL, help="API base URL, without /api/v1")
    login.add_argument(
        "--insecure-storage",
        action="store_true",
        help="store the key in a 0600 file when no OS keyring is available",
    )

    logout = sub.add_parser("logout", help="forget the saved key of a profile")
    _add_profile(logout, _KEEP_TOP_LEVEL)

    auth = sub.add_parser("auth", help="inspect authentication")
    auth_sub = auth.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    status = auth_sub.add_parser(
        "status", help="which profile and key are used, and whether it works"
    )
    _add_profile(status, _KEEP_TOP_LEVEL)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    if ns.command == "sandbox":
        from leadtui.cli.sandbox import run as run_sandbox

        return run_sandbox(ns)
    if ns.command in ("login", "logout", "auth"):
        from leadtui.cli import auth as auth_cli

        return auth_cli.run(ns)
    if ns.demo:
        return _run_demo(ns)
    from leadtui.ui.launch import run as run_tui

    return run_tui(ns)


def _run_demo(ns: argparse.Namespace) -> int:
    # Only cli.py starts the sandbox: the UI never imports it.
    from leadtui.sandbox.embedded import EmbeddedSandbox
    from leadtui.ui.launch import run as run_tui

    with EmbeddedSandbox(demo_data=True) as sandbox:
        return run_tui(ns, demo_base_url=sandbox.base_url, demo_key=DEMO_KEY)


if __name__ == "__main__":
    sys.exit(main())
