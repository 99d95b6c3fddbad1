"""Start-up stays lean: what is imported before the balance is on screen, and what is not.

Start-up time is a goal (bench/bench_startup.py measures it). These tests pin
the behaviour that keeps it, not times: the sandbox, the keyring, the screens not shown first,
the API resources and the spend journal stay out of a launch until they are used.
"""

from __future__ import annotations

import datetime
import os
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConnectionFailed
from leadtui.sandbox.embedded import EmbeddedSandbox

pytestmark = pytest.mark.slow  # real processes of the app, timed to their screens

# Never imported by `leadtui` before the credits are on screen (a key from the environment).
OFF_THE_FIRST_FRAME = (
    "fastapi",
    "uvicorn",
    "faker",
    "keyring",
    "tomlkit",  # only for saving settings
    "pydantic_settings",  # only for saving settings, or a LEADTUI_* setting to read
    "leadtui.sandbox",
    "leadtui.api.searches",
    "leadtui.api.exports",
    "leadtui.api.extractions",
    "leadtui.api.downloads",
    "leadtui.ui.screens.searches",
    "leadtui.ui.screens.search_builder",
    "leadtui.ui.screens.jobs",
    "leadtui.ui.screens.sign_in",
    "mcp",  # the agents' tool server's SDK: `leadtui mcp` only
    "mcp_types",
    "leadtui.mcp",
    "leadtui.cli.spec",  # `leadtui --spec` only
    "leadtui.cli.completion",  # `leadtui completion SHELL` only
    "leadtui.cli.commands_tree",
)

# Runs the real launch path (a bare `leadtui`: launch.build_app) headless until the header shows
# the balance. Prints the balance, whether the header was up when the app began loading the
# rest (settings, client, key: the first frame), the modules imported by then, and the
# modules imported once the balance was on screen.
LAUNCH_UNTIL_CREDITS = """
import asyncio, sys
from leadtui.ui.frame.launch import build_app

async def main():
    app = build_app()
    first, seen = app.sessions.first_frame, []

    def load():
        tabs = str(app.screen.query_one("AppHeader").render())
        seen.append((" ".join(sorted(sys.modules)), "4 Jobs" in tabs))
        return first.load()

    app.sessions.first_frame = first._replace(load=load)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            if app.credits is not None:
                break
            await pilot.pause(0.025)
        print(app.credits)
        print(seen[0][1])
        print(seen[0][0])
        print(" ".join(sorted(sys.modules)))

asyncio.run(main())
"""


def _run(code: str, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


def _launch_env(base_url: str, home: Path) -> dict[str, str]:
    """A launch with a key from the environment, on a machine of its own under `home`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADTUI_")}
    return env | {
        "LEADTUI_BASE_URL": base_url,
        "LEADTUI_API_KEY": "sk_demo_full",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }


def test_balance_on_screen_without_sandbox_keyring_or_other_screens(tmp_path: Path) -> None:
    with EmbeddedSandbox() as sandbox:
        env = _launch_env(sandbox.base_url, tmp_path)
        credits, _, _, modules = _run(LAUNCH_UNTIL_CREDITS, env)
    assert credits == "10000"
    loaded = set(modules.split())
    assert "leadtui.ui.screens.account" in loaded  # the screen that shows the balance
    assert _loaded(loaded, OFF_THE_FIRST_FRAME) == []


# `leadtui` as a user starts it (the console script's `main`: the collector off for start-up),
# until the balance is on screen. Prints whether the cyclic collector runs again then, whether
# start-up froze objects out of its passes, and whether the command line's parser was imported.
LAUNCH_THROUGH_MAIN = """
import asyncio, gc, sys
from unittest import mock
from leadtui.cli import main

async def until_credits(app):
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            if app.credits is not None:
                break
            await pilot.pause(0.025)
        parser = "leadtui.cli.main" in sys.modules
        print(app.credits, gc.isenabled(), gc.get_freeze_count() > 0, parser)

def run(self, *args, **kwargs):
    asyncio.run(until_credits(self))

sys.argv = ["leadtui"]
with mock.patch("leadtui.ui.frame.app.LeadApp.run", run):
    main()
"""


def test_start_up_runs_without_the_cyclic_collector_then_turns_it_back_on(
    tmp_path: Path,
) -> None:
    with EmbeddedSandbox() as sandbox:
        env = _launch_env(sandbox.base_url, tmp_path)
        (line,) = _run(LAUNCH_THROUGH_MAIN, env)
    assert line == "10000 True True False"


# Textual only, and the frame's own modules: nothing that talks to the server or reads a key,
# nor the command line's parser (a bare `leadtui` needs none of it), nor what is hidden.
NOT_ON_THE_FIRST_FRAME = (
    "argparse",
    "leadtui.cli.main",
    "httpx",
    "pydantic",
    "pydantic_settings",
    "keyring",
    "leadtui.sandbox",
    "leadtui.api.client",
    "leadtui.api.models",
    "leadtui.config.settings",
    "leadtui.config.secrets",
    # What the first frame does not draw: errors, the too-small notice, the palette.
    "leadtui.api.errors",
    "leadtui.ui.model.errors",
    "leadtui.ui.widgets.error_panel",
    "leadtui.ui.widgets.too_small",
    "leadtui.ui.frame.commands",
)


def test_first_frame_is_painted_before_httpx_pydantic_keyring_or_the_sandbox(
    tmp_path: Path,
) -> None:
    with EmbeddedSandbox() as sandbox:
        env = _launch_env(sandbox.base_url, tmp_path)
        credits, header_shown, modules, _ = _run(LAUNCH_UNTIL_CREDITS, env)
    assert header_shown == "True"
    assert _loaded(set(modules.split()), NOT_ON_THE_FIRST_FRAME) == []
    assert credits == "10000"  # and then the rest came


# The usage chart is drawn when GET /usage answers: the Account screen's first frame (a line
# saying the usage is loading) does not import it. Runs the launch until the chart is on
# screen; prints whether it is, the modules of the first frame, and the modules by then.
LAUNCH_UNTIL_USAGE_CHART = """
import asyncio, sys
from leadtui.ui.frame.launch import build_app

async def main():
    app = build_app()
    first, seen = app.sessions.first_frame, []

    def load():
        seen.append(" ".join(sorted(sys.modules)))
        return first.load()

    def chart_shown():
        rows = app.screen._compositor.render_strips()
        return any("(←/→ day" in row.text for row in rows)

    app.sessions.first_frame = first._replace(load=load)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            if chart_shown():
                break
            await pilot.pause(0.025)
        print(chart_shown())
        print(seen[0])
        print(" ".join(sorted(sys.modules)))

asyncio.run(main())
"""

USAGE_CHART_MODULES = ("leadtui.ui.widgets.usage_chart", "leadtui.ui.model.usage_chart")


def test_usage_chart_is_imported_when_usage_arrives_not_for_the_first_frame(
    tmp_path: Path,
) -> None:
    with EmbeddedSandbox() as sandbox:
        env = _launch_env(sandbox.base_url, tmp_path)
        shown, first_frame, later = _run(LAUNCH_UNTIL_USAGE_CHART, env)
    first = set(first_frame.split())
    assert "leadtui.ui.screens.account" in first  # the screen the chart is drawn on
    assert _loaded(first, USAGE_CHART_MODULES) == []
    assert shown == "True"
    assert _loaded(set(later.split()), USAGE_CHART_MODULES) == sorted(USAGE_CHART_MODULES)


def test_importing_the_launch_path_builds_no_model_resource_or_journal() -> None:
    (line,) = _run(
        "import sys, leadtui.cli.main, leadtui.ui.frame.launch; print(' '.join(sys.modules))"
    )
    heavy = (
        *OFF_THE_FIRST_FRAME,
        "click",  # httpx's command line, never run by the TUI
        "leadtui.api.models",
        "leadtui.spend.journal",
        "leadtui.ui.frame.spend_flow",
        "leadtui.ui.screens.account",
        "sqlite3",
    )
    assert _loaded(set(line.split()), heavy) == []


def test_the_first_frames_modules_define_no_dataclass() -> None:
    # Defining a dataclass costs ~0.5 ms, a NamedTuple ~0.07: the first frame's records are
    # NamedTuples (bench/bench_startup.py).
    (line,) = _run(
        "import dataclasses, sys\n"
        "import leadtui.cli.main, leadtui.ui.frame.launch, leadtui.ui.screens.account\n"
        "print(sorted(f'{name}.{kind}' for name, module in list(sys.modules.items())"
        " if name.startswith('leadtui') for kind, value in vars(module).items()"
        " if dataclasses.is_dataclass(value) and value.__module__ == name))\n"
    )
    assert line == "[]"


# What `leadtui account --json` must not import with the key in LEADTUI_API_KEY (and the
# server in LEADTUI_BASE_URL): the keyring, pydantic-settings (the settings are only read),
# anyio's asyncio backend (the command line sends through httpx's sync client), httpx's own
# command line, Textual, the spend journal, the code of the other commands.
OFF_THE_ACCOUNT_COMMAND = (
    "mcp",  # the agents' tool server's SDK: `leadtui mcp` only
    "mcp_types",
    "leadtui.mcp",
    "keyring",
    "pydantic_settings",
    "dotenv",
    "tomlkit",
    "tomllib",  # there is no settings file to read
    "anyio._backends._asyncio",
    "click",
    "rich",
    "pygments",
    "textual",
    "leadtui.ui",
    "leadtui.sandbox",
    "sqlite3",
    "leadtui.api.searches",
    "leadtui.api.exports",
    "leadtui.api.extractions",
    "leadtui.api.downloads",
    "leadtui.cli.lists",
    "leadtui.cli.spending",
)

COMMAND_THEN_MODULES = """
import sys
from leadtui.cli.main import main
code = main(sys.argv[1:])
print(" ".join(sorted(sys.modules)))
sys.exit(code)
"""


def test_account_json_with_an_environment_key_imports_no_keyring_or_settings_loader(
    tmp_path: Path,
) -> None:
    with EmbeddedSandbox() as sandbox:
        env = _launch_env(sandbox.base_url, tmp_path)
        done = subprocess.run(
            [sys.executable, "-c", COMMAND_THEN_MODULES, "account", "--json"],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    document, modules = done.stdout.splitlines()
    assert '"credits": 10000' in document
    loaded = set(modules.split())
    assert "leadtui.config.settings" in loaded  # the settings were read, and checked
    assert _loaded(loaded, OFF_THE_ACCOUNT_COMMAND) == []
    # Of the spend core, only the codes every surface reports (spend/errors.py).
    assert sorted(m for m in loaded if m.startswith("leadtui.spend")) == [
        "leadtui.spend",
        "leadtui.spend.errors",
    ]


def test_version_is_read_without_package_metadata_and_matches_it() -> None:
    (imported, version) = _run(
        "import sys, leadtui\n"
        "print('importlib.metadata' in sys.modules)\n"
        "print(leadtui.__version__)\n"
    )
    assert imported == "False"
    from importlib.metadata import version as installed_version

    assert version == installed_version("leadtui")  # pyproject reads leadtui.__version__


def test_the_api_package_imports_none_of_its_modules() -> None:
    # Every module of the app imports `leadtui.api.<module>`, which runs the package first: it
    # must not pull the client, httpx or pydantic onto the first frame.
    (loaded,) = _run(
        "import sys, leadtui.api\n"
        "print(sorted(m for m in sys.modules if m.startswith('leadtui.api.') or m == 'httpx'))\n"
    )
    assert loaded == "[]"


def test_client_resources_are_built_once_on_first_use() -> None:
    client = LeadClient("http://127.0.0.1:9", "sk_demo_full")
    assert "searches" not in vars(client)
    assert client.searches is client.searches
    assert client.exports is client.exports
    assert client.extractions is client.extractions


# --- https still verifies the server (only http:// loopback skips loading the CA bundle) ---


@pytest.fixture
def self_signed_tls_server(tmp_path: Path) -> Iterator[str]:
    """An https server on loopback whose certificate no CA vouches for (a man in the middle)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)

    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    answered: list[bytes] = []

    def serve() -> None:
        # Answers a request if the client ever completes the handshake (it must not).
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            try:
                with context.wrap_socket(raw, server_side=True) as tls:
                    answered.append(tls.recv(4096))
                    tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
            except (ssl.SSLError, OSError):
                raw.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"https://localhost:{port}"
    finally:
        listener.close()
        thread.join(timeout=5)
    assert answered == []  # no request (and no key) ever went over the unverified connection


async def test_https_server_with_an_untrusted_certificate_is_refused(
    self_signed_tls_server: str,
) -> None:
    async with LeadClient(self_signed_tls_server, "sk_demo_full", max_retries=0) as client:
        with pytest.raises(ConnectionFailed):
            await client.me()
