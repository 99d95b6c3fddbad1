"""`leadtui completion bash|zsh|fish`, loaded in the real shell and asked what follows: the
commands, a command's verbs, its options, an option's choices, and file names for `--file`
and `-o`, folders for `--download`; nothing but a value after `--profile`."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from leadtui.cli.main import main
from leadtui.cli.runtime import CliDeps

Complete = Callable[..., list[str]]

# zsh's completion builtins exist only while zsh completes: the harness stands in for them,
# printing each candidate `compadd` is given that starts with the word being completed (as zsh
# itself would keep), and what `_files` (zsh's own file completion) is asked for.
ZSH_HARNESS = """\
source ./leadtui.zsh
compadd() { local a; for a in "$@"; do
  [[ $a == -- || $a != ${words[CURRENT]}* ]] || print -r -- "$a"; done }
_files() { print -r -- "<files${1:+ $1}>"; }
words=("${(@)argv}"); CURRENT=$#words
_leadtui
"""


def script(shell: str) -> str:
    out = io.StringIO()
    assert main(["completion", shell], CliDeps(stdout=out, stderr=io.StringIO())) == 0
    return out.getvalue()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Where the shell runs: the scripts, a request file, a note, a folder."""
    tmp_path = tmp_path / "here"
    tmp_path.mkdir()
    for shell in ("bash", "zsh", "fish"):
        (tmp_path / f"leadtui.{shell}").write_text(script(shell))
    (tmp_path / "search.json").write_text("{}")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "leads").mkdir()
    (tmp_path / "zsh-harness").write_text(ZSH_HARNESS)
    return tmp_path


def shell_run(folder: Path, argv: list[str]) -> list[str]:
    done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60, check=True)
    assert done.stderr == ""
    return done.stdout.split()


def bash(folder: Path) -> Complete:
    def complete(*words: str) -> list[str]:
        quoted = " ".join(f"'{w}'" for w in words)
        program = (
            f"source ./leadtui.bash; COMP_WORDS=(leadtui {quoted}); COMP_CWORD={len(words)}; "
            '_leadtui; printf "%s\\n" "${COMPREPLY[@]}"'
        )
        return sorted(shell_run(folder, ["bash", "--norc", "-c", program]))

    return complete


def zsh(folder: Path) -> Complete:
    def complete(*words: str) -> list[str]:
        lines = subprocess.run(
            ["zsh", "-f", "zsh-harness", "leadtui", *words],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        ).stdout.splitlines()
        return sorted(lines)

    return complete


def fish(folder: Path) -> Complete:
    def complete(*words: str) -> list[str]:
        line = " ".join(("leadtui", *words))
        program = f"source leadtui.fish; complete -C '{line}'"
        done = subprocess.run(
            ["fish", "--no-config", "-c", program],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert done.stderr == ""
        return sorted(row.split("\t")[0] for row in done.stdout.splitlines())

    return complete


SHELLS = {"bash": bash, "zsh": zsh, "fish": fish}


@pytest.mark.parametrize("shell", SHELLS)
def test_commands_and_verbs(folder: Path, shell: str) -> None:
    complete = SHELLS[shell](folder)
    assert complete("exp") == ["exports"]
    verbs = complete("exports", "")
    assert {"list", "get", "download", "wait", "custom-download"} <= set(verbs)
    assert "searches" not in verbs
    assert complete("searches", "l") == ["list"]
    assert complete("completion", "") == ["bash", "fish", "zsh"]


@pytest.mark.parametrize("shell", SHELLS)
def test_options_and_their_choices(folder: Path, shell: str) -> None:
    complete = SHELLS[shell](folder)
    assert "--output" in complete("exports", "download", "exp_1", "--")
    assert "--max-credits" in complete("unlock", "srch_1", "--")
    formats = complete("searches", "results", "s1", "--format", "")
    assert formats == ["csv", "json", "jsonl", "table"]
    assert complete("exports", "custom-download", "e", "--format", "") == ["csv", "json"]
    assert complete("--profile", "") == []


@pytest.mark.parametrize("shell", SHELLS)
def test_file_names_for_file_and_output_folders_for_download(folder: Path, shell: str) -> None:
    complete = SHELLS[shell](folder)
    files = complete("searches", "create", "--file", "s")
    folders = complete("unlock", "srch_1", "--download", "")
    output = complete("exports", "download", "exp_1", "-o", "")
    if shell == "zsh":  # handed to zsh's own file completion
        assert (files, folders, output) == (["<files>"], ["<files -/>"], ["<files>"])
        return
    assert files == ["search.json"]
    assert [f.rstrip("/") for f in folders] == ["leads"]
    assert {"search.json", "notes.txt"} <= set(output)
    assert not {"list", "get"} & set(output)
