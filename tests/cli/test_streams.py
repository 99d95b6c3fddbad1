"""The real `leadtui` process when its standard output fails or the user presses Ctrl-C: one
line on stderr and a documented exit code, never a traceback; under `--json` an interrupted
list says what was read."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from tests.cli.test_process import environment, leadtui, new_search
from tests.e2e.sandbox_process import sandbox_process

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[str]:
    with sandbox_process("--job-seconds", "0.3") as url:
        yield url


def shell(env: dict[str, str], command: str) -> subprocess.CompletedProcess[str]:
    """`command` under sh, `leadtui` being this interpreter's."""
    return subprocess.run(
        ["/bin/sh", "-c", command.replace("leadtui", f"{sys.executable} -m leadtui", 1)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_a_closed_stdout_is_one_line_and_write_failed(sandbox: str, tmp_path: Path) -> None:
    done = shell(environment(sandbox, tmp_path), "leadtui account --json >&-")
    assert done.returncode == Exit.WRITE_FAILED
    assert "standard output is closed" in one_line(done.stderr)


def test_a_full_stdout_is_one_line_and_write_failed(sandbox: str, tmp_path: Path) -> None:
    env = environment(sandbox, tmp_path)
    new_search(sandbox)  # a list with something to write
    for command in ("leadtui account --json", "leadtui searches list --all --jsonl"):
        done = shell(env, f"{command} >/dev/full")
        assert done.returncode == Exit.WRITE_FAILED, done.stderr
        assert "No space left on device" in one_line(done.stderr)


@pytest.mark.parametrize(
    "command",
    ["leadtui --spec", "leadtui completion zsh", "leadtui auth status --json", "leadtui x --json"],
)
@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
def test_no_command_prints_a_traceback_for_a_failed_stdout(
    sandbox: str, tmp_path: Path, command: str, redirect: str
) -> None:
    done = shell(environment(sandbox, tmp_path), f"{command} {redirect}")
    assert done.returncode == Exit.WRITE_FAILED, done.stderr
    assert "write_failed" in one_line(done.stderr)


def test_a_reader_that_stops_reading_ends_it_quietly(sandbox: str, tmp_path: Path) -> None:
    env = environment(sandbox, tmp_path)
    for _ in range(3):
        new_search(sandbox)
    done = shell(env, "leadtui searches list --all --jsonl --limit 1 | head -c1; exit $?")
    assert done.returncode == 0
    assert done.stdout == "{"
    assert done.stderr == ""


def small_files() -> None:
    """A disk that fills after 4 KiB: writing past it fails with EFBIG (Python ignores
    SIGXFSZ, so the write answers an error instead of killing the process)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_download_to_a_full_disk_is_write_failed(sandbox: str, tmp_path: Path) -> None:
    env = environment(sandbox, tmp_path)
    search_id = new_search(sandbox)
    unlocked = leadtui(env, "unlock", search_id, "--results", "50", "--max-credits", "50", "--json")
    export_id = json.loads(unlocked.stdout)["exportId"]
    assert leadtui(env, "exports", "wait", export_id).returncode == Exit.OK
    leads = tmp_path / "leads"
    leads.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "leadtui", "exports", "download", export_id, "-o", f"{leads}/"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
        preexec_fn=small_files,
    )
    assert done.returncode == Exit.WRITE_FAILED
    assert "write_failed" in one_line(done.stderr)
    assert list(leads.iterdir()) == []  # nothing half-written


def interrupted_listing(home: Path, fmt: str) -> tuple[int, str, str]:
    """`searches list --all` over a slow server, Ctrl-C once the second page was asked for."""
    with sandbox_process("--latency-ms", "400") as slow:
        for _ in range(4):
            new_search(slow)
        child = subprocess.Popen(
            [sys.executable, "-m", "leadtui", "searches", "list", "--all", "--limit", "1", fmt],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(slow, home),
        )
        assert child.stdout is not None
        if fmt == "--jsonl":
            first = child.stdout.readline()  # the first page was read and printed
        else:
            first = ""
            journal = requests_seen(slow)
            while len(journal()) < 2:  # the condition: the second page was asked for
                assert child.poll() is None
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    return child.returncode, first + out, err


def requests_seen(base_url: str) -> Callable[[], list[object]]:
    def searches() -> list[object]:
        log = httpx.get(f"{base_url}/_sandbox/requests", timeout=30).json()["data"]
        return [r for r in log if r["method"] == "GET" and r["path"].endswith("/searches")]

    return searches


@pytest.mark.parametrize("fmt", ["--json", "--jsonl"])
def test_ctrl_c_under_json_says_what_was_read(tmp_path: Path, fmt: str) -> None:
    code, out, err = interrupted_listing(tmp_path, fmt)
    assert code == Exit.INTERRUPTED
    assert "Traceback" not in err
    lines = [json.loads(line) for line in out.splitlines()]
    error = lines[-1]["error"]
    assert error["code"] == "interrupted"
    assert error["items_read"] >= 1
    if fmt == "--jsonl":
        assert len(lines) - 1 == error["items_read"]  # the items, then that line
        assert all("searchId" in item for item in lines[:-1])
    else:
        assert len(lines) == 1
        assert len(error["data"]) == error["items_read"]
