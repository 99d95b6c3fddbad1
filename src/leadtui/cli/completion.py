"""`leadtui completion bash|zsh|fish`: a completion script for the shell, made from the parser
itself, printed for `eval` or a completions folder. Imported only when asked for.

At every level: the commands, then each one's verbs, options and positional choices; after an
option, its choices (`--format`), file names (`--file`, `-o`), folders (`--download`), or
nothing for a free value (`--profile`). Each shell gets the same three tables, keyed by the
command path typed so far (`leadtui exports download`), and a small function that walks the
words typed to find that path.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from leadtui.cli.commands_tree import Command, Option, walk

# What an option's value is, by its metavar: a file, a folder; otherwise a free value.
_KINDS: Final = {"FILE": "file", "PATH": "file", "DIR": "dir"}


@dataclass(frozen=True)
class _Tables:
    """Keyed by `leadtui PATH` (words), or `leadtui PATH FLAG` (values and value kinds)."""

    words: dict[str, list[str]]
    """What may follow a command: its subcommands, positional choices, then its flags."""
    choices: dict[str, list[str]]
    """An option's choices (`leadtui searches results --format`)."""
    kinds: dict[str, str]
    """`file`, `dir` or `value` for an option that takes a value without choices."""


def _key(command: Command) -> str:
    return " ".join(("leadtui", *command.path))


def _tables(commands: Iterable[Command]) -> _Tables:
    tables = _Tables({}, {}, {})
    for command in commands:
        key = _key(command)
        flags = [flag for option in command.options for flag in option.flags]
        positional = [c for option in command.options if not option.flags for c in option.choices]
        tables.words[key] = [*command.subcommands, *positional, *flags]
        for option in command.options:
            for flag in option.flags:
                if option.choices:
                    tables.choices[f"{key} {flag}"] = list(option.choices)
                elif option.takes_value:
                    tables.kinds[f"{key} {flag}"] = _KINDS.get(option.name, "value")
    return tables


def _assoc(entries: dict[str, list[str]] | dict[str, str]) -> str:
    """An associative array's body: `  [key]=value` lines, both quoted for sh."""
    lines = []
    for key, value in entries.items():
        text = value if isinstance(value, str) else " ".join(value)
        lines.append(f"  [{shlex.quote(key)}]={shlex.quote(text)}")
    return "\n".join(lines)


def _arrays(tables: _Tables) -> str:
    return (
        f"typeset -gA _leadtui_words=(\n{_assoc(tables.words)}\n)\n"
        f"typeset -gA _leadtui_choices=(\n{_assoc(tables.choices)}\n)\n"
        f"typeset -gA _leadtui_kinds=(\n{_assoc(tables.kinds)}\n)\n"
    )


def bash(parser: argparse.ArgumentParser) -> str:
    return f"""\
# leadtui completion for bash: eval "$(leadtui completion bash)"
{_arrays(_tables(walk(parser)))}
_leadtui() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  local at="leadtui" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${{COMP_WORDS[i]}}"
    if [[ -n "${{_leadtui_words["$at $word"]+set}}" ]]; then
      at="$at $word"
    fi
  done
  if [[ -n "${{_leadtui_choices["$at $prev"]+set}}" ]]; then
    COMPREPLY=($(compgen -W "${{_leadtui_choices["$at $prev"]}}" -- "$cur"))
    return
  fi
  case "${{_leadtui_kinds["$at $prev"]}}" in
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;
    value) COMPREPLY=(); return ;;
  esac
  COMPREPLY=($(compgen -W "${{_leadtui_words[$at]}}" -- "$cur"))
}}
complete -F _leadtui leadtui
"""


def zsh(parser: argparse.ArgumentParser) -> str:
    return f"""\
#compdef leadtui
# leadtui completion for zsh: eval "$(leadtui completion zsh)" (after compinit)
{_arrays(_tables(walk(parser)))}
_leadtui() {{
  local at=leadtui word i prev=${{words[CURRENT-1]}}
  for (( i = 2; i < CURRENT; i++ )); do
    word=${{words[i]}}
    if (( ${{+_leadtui_words[$at $word]}} )); then
      at="$at $word"
    fi
  done
  if (( ${{+_leadtui_choices[$at $prev]}} )); then
    compadd -- ${{=_leadtui_choices[$at $prev]}}
    return
  fi
  case ${{_leadtui_kinds[$at $prev]}} in
    file) _files; return ;;
    dir) _files -/; return ;;
    value) return 1 ;;
  esac
  compadd -- ${{=_leadtui_words[$at]}}
}}
if (( $+functions[compdef] )); then
  compdef _leadtui leadtui
fi
"""


def fish(parser: argparse.ArgumentParser) -> str:
    commands = list(walk(parser))
    paths = " ".join(shlex.quote(command.name) for command in commands if command.path)
    lines = [
        "# leadtui completion for fish: leadtui completion fish | source",
        f"set -g __leadtui_paths {paths}",
        "function __leadtui_at --description 'the leadtui command typed so far is $argv'",
        "    set -l here",
        "    for word in (commandline -opc)[2..]",
        '        set -l next (string trim -- "$here $word")',
        "        if contains -- $next $__leadtui_paths",
        "            set here $next",
        "        end",
        "    end",
        '    test "$here" = "$argv"',
        "end",
        "complete -c leadtui -f",
    ]
    for command in commands:
        at = shlex.quote(f"__leadtui_at {command.name}".rstrip())
        if command.subcommands:
            lines.append(
                f"complete -c leadtui -n {at} -a {shlex.quote(' '.join(command.subcommands))}"
            )
        for option in command.options:
            if not option.flags:
                if option.choices:
                    lines.append(
                        f"complete -c leadtui -n {at} -a {shlex.quote(' '.join(option.choices))}"
                    )
                continue
            lines.append(f"complete -c leadtui -n {at} {_fish_option(option)}")
    return "\n".join(lines) + "\n"


def _fish_option(option: Option) -> str:
    names = " ".join(
        f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}" for flag in option.flags
    )
    if option.choices:
        names += f" -x -a {shlex.quote(' '.join(option.choices))}"
    elif option.takes_value:
        names += {
            "file": " -r -F",
            "dir": " -x -a '(__fish_complete_directories)'",
            "value": " -x",
        }[_KINDS.get(option.name, "value")]
    if option.help:
        names += f" -d {shlex.quote(option.help.split(';')[0][:60])}"
    return names


SCRIPTS: Final = {"bash": bash, "zsh": zsh, "fish": fish}


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    return SCRIPTS[shell](parser)
