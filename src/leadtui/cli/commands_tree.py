"""The command line as data: every command (`exports download`), its options and arguments,
read from the parser itself, so `--spec` and shell completion can never drift from it.

Imported only by `leadtui --spec` and `leadtui completion`.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One option or positional argument of a command."""

    flags: tuple[str, ...]
    """`('-o', '--output')`; empty for a positional argument."""
    name: str
    help: str
    takes_value: bool
    required: bool
    choices: tuple[str, ...] = ()
    default: Any = None


@dataclass(frozen=True)
class Command:
    """A command as typed after `leadtui`: `path` is `('exports', 'download')`."""

    path: tuple[str, ...]
    summary: str
    options: tuple[Option, ...]
    epilog: str | None
    subcommands: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return " ".join(self.path)


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    actions = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return next(actions, None)


def _option(action: argparse.Action) -> Option:
    takes_value = action.nargs != 0
    default = action.default if action.default is not argparse.SUPPRESS else None
    return Option(
        flags=tuple(action.option_strings),
        name=action.metavar if isinstance(action.metavar, str) else action.dest,
        help=(action.help or "").replace("%(default)s", str(default)),
        takes_value=takes_value,
        required=bool(action.required),
        choices=tuple(str(c) for c in action.choices or ()),
        default=default if takes_value and not callable(default) else None,
    )


def _options(parser: argparse.ArgumentParser) -> tuple[Option, ...]:
    return tuple(
        _option(action)
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction)
        and not isinstance(action, argparse._HelpAction)
    )


def walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = (), summary: str = ""
) -> Iterator[Command]:
    """`parser` and every command under it, depth first, in the order `--help` lists them."""
    sub = _subparsers(parser)
    names = tuple(sub.choices) if sub is not None else ()
    yield Command(path, summary or parser.description or "", _options(parser), parser.epilog, names)
    if sub is None:
        return
    summaries = {choice.dest: choice.help or "" for choice in sub._choices_actions}
    for name, child in sub.choices.items():
        yield from walk(child, (*path, name), summaries.get(name, ""))
