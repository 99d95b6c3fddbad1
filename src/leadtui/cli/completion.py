"""`leadtui completion bash|zsh|fish`: a completion script for the shell, made from the parser
itself (commands, verbs, options and their choices), printed for `eval` or a completions
folder. Imported only when asked for.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable
from typing import Final

from leadtui.cli.commands_tree import Command, walk

SHELLS: Final = ("bash", "zsh", "fish")


def _words(command: Command) -> list[str]:
    """What may follow `command`: its subcommands, the choices of its positional arguments
    (`completion bash`), then its options' flags."""
    flags = [flag for option in command.options for flag in option.flags if flag.startswith("--")]
    choices = [
        choice for option in command.options if not option.flags for choice in option.choices
    ]
    return [*command.subcommands, *choices, *flags]


def _value_choices(commands: Iterable[Command]) -> dict[str, list[str]]:
    """`--format` → `table json jsonl csv`, for every option with choices."""
    found: dict[str, list[str]] = {}
    for command in commands:
        for option in command.options:
            for flag in option.flags:
                if option.choices:
                    found.setdefault(flag, list(option.choices))
    return found


def bash(parser: argparse.ArgumentParser) -> str:
    commands = list(walk(parser))
    # Keyed by the words typed so far, `leadtui` first (bash keys cannot be empty).
    table = "\n".join(
        f"  [{shlex.quote(' '.join(('leadtui', *c.path)))}]={shlex.quote(' '.join(_words(c)))}"
        for c in commands
    )
    values = "\n".join(
        f"  [{shlex.quote(flag)}]={shlex.quote(' '.join(choices))}"
        for flag, choices in _value_choices(commands).items()
    )
    return f"""\
# leadtui completion for bash (and zsh through bashcompinit).
declare -gA _leadtui_words=(
{table}
)
declare -gA _leadtui_values=(
{values}
)
_leadtui() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  local path="leadtui" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${{COMP_WORDS[i]}}"
    if [[ -n "${{_leadtui_words["$path $word"]+set}}" ]]; then
      path="$path $word"
    fi
  done
  if [[ -n "${{_leadtui_values[$prev]+set}}" ]]; then
    COMPREPLY=($(compgen -W "${{_leadtui_values[$prev]}}" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "${{_leadtui_words[$path]}}" -- "$cur"))
}}
complete -F _leadtui leadtui
"""


def zsh(parser: argparse.ArgumentParser) -> str:
    return (
        "# leadtui completion for zsh: the bash one, through bashcompinit.\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + bash(parser)
    )


def fish(parser: argparse.ArgumentParser) -> str:
    lines = ["# leadtui completion for fish.", "complete -c leadtui -f"]
    for command in walk(parser):
        if command.path:
            given = " && ".join(f"__fish_seen_subcommand_from {w}" for w in command.path)
        else:
            given = "__fish_use_subcommand"
        for name in command.subcommands:
            lines.append(f"complete -c leadtui -n {shlex.quote(given)} -a {shlex.quote(name)}")
        for option in command.options:
            if not option.flags and option.choices:
                words = shlex.quote(" ".join(option.choices))
                lines.append(f"complete -c leadtui -n {shlex.quote(given)} -a {words}")
            for flag in option.flags:
                if not flag.startswith("--"):
                    continue
                line = f"complete -c leadtui -n {shlex.quote(given)} -l {flag[2:]}"
                if option.choices:
                    line += f" -x -a {shlex.quote(' '.join(option.choices))}"
                elif option.takes_value:
                    line += " -r"
                if option.help:
                    line += f" -d {shlex.quote(option.help.split(';')[0][:60])}"
                lines.append(line)
    return "\n".join(lines) + "\n"


SCRIPTS: Final = {"bash": bash, "zsh": zsh, "fish": fish}


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    return SCRIPTS[shell](parser)
