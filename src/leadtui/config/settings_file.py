"""config.toml on disk: read with tomllib, refusing anything odd with a one-line reason; saved
with tomlkit so the user's comments, order and formatting survive and only changed values move.
Each is imported only when needed (tomlkit to save, tomllib when there is a file to read): the
first frame, or a command configured by LEADTUI_* alone, needs neither.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any, Final

from leadtui.config.errors import SettingsFileError
from leadtui.config.files import UnreadableFile, read_regular_file
from leadtui.durable import os_error_reason, write_atomically

# Settings nest three levels (profiles.NAME.base_url); deeper is not a settings file.
MAX_NESTING: Final = 8

# Names under which people paste secrets into config files; refused on load.
_SECRET_NAMES: Final = frozenset({"api_key", "apikey", "key", "token", "secret"})


def _cannot_read(path: Path, problem: str, line: int | None = None) -> SettingsFileError:
    return SettingsFileError(str(path), f"cannot read settings: {problem}", line=line)


def read_settings_text(path: Path) -> str:
    """The file's text ("" when it does not exist): a regular file of valid UTF-8."""
    try:
        raw = read_regular_file(path)
    except UnreadableFile as exc:
        raise _cannot_read(path, exc.reason) from None
    if raw is None:
        return ""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        bad = raw[exc.start]
        raise _cannot_read(path, f"not valid UTF-8 (byte 0x{bad:02x})", line) from None


def parse_settings_text(path: Path, text: str) -> dict[str, Any]:
    """The settings in `text` as plain data; refuses bad TOML, deep nesting and pasted keys."""
    if not text:  # no file, or an empty one
        return {}
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _cannot_read(path, f"invalid TOML: {exc}") from None
    except RecursionError:
        raise _cannot_read(path, f"nested more than {MAX_NESTING} levels deep") from None
    if _deeper_than(data, MAX_NESTING):
        raise _cannot_read(path, f"nested more than {MAX_NESTING} levels deep")
    _refuse_secrets(data, path)
    return data


def read_settings_file(path: Path) -> dict[str, Any]:
    return parse_settings_text(path, read_settings_text(path))


def _deeper_than(value: Any, levels: int) -> bool:
    if not isinstance(value, dict | list):
        return False
    inside = value.values() if isinstance(value, dict) else value
    return levels == 0 or any(_deeper_than(v, levels - 1) for v in inside)


def _refuse_secrets(data: Mapping[str, Any], path: Path) -> None:
    tables: list[tuple[str, Mapping[str, Any]]] = [("", data)]
    profiles = data.get("profiles")
    if isinstance(profiles, Mapping):
        tables += [(f"profiles.{n}.", t) for n, t in profiles.items() if isinstance(t, Mapping)]
    for prefix, table in tables:
        for name in table:
            if name.lower() in _SECRET_NAMES:
                raise SettingsFileError(
                    str(path),
                    f"'{prefix}{name}' looks like an API key, and keys never go in the config "
                    "file. Remove it, then run `leadtui login` or set LEADTUI_API_KEY.",
                )


def write_settings_file(
    path: Path, text: str, full: Mapping[str, Any], changed: Mapping[str, Any]
) -> None:
    """Save the settings into `text` (the file as read) and write it atomically: a value of
    `full` already on file is updated in place (its comment kept), one not on file is added only
    when it is in `changed` (differs from its default), one on file absent from `full` goes."""
    import tomllib

    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    expected = tomllib.loads(text)
    _merge(expected, full, changed, dict)
    try:
        doc = tomlkit.parse(text)
        _merge(doc, full, changed, _new_tomlkit_table)
        saved = doc.as_string()
        if not text.endswith("\n\n"):
            saved = saved.rstrip("\n") + "\n" if saved.strip() else saved
        kept = tomllib.loads(saved) == expected
    except (TOMLKitError, tomllib.TOMLDecodeError, ValueError):
        kept = False
    if not kept:
        # A layout tomlkit cannot edit in place (a dotted key before a table): correct first.
        saved = tomlkit.dumps(expected)
    try:
        write_atomically(path, saved.encode())
    except OSError as exc:
        raise SettingsFileError(
            str(path), f"cannot save settings: {os_error_reason(exc)}"
        ) from None


def _plain(value: Any) -> Any:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def _merge(
    table: MutableMapping[str, Any],
    full: Mapping[str, Any],
    changed: Mapping[str, Any],
    new_table: Callable[[Mapping[str, Any]], Any],
) -> None:
    for name in [n for n in table if n not in full]:
        del table[name]
    for name, value in full.items():
        if name in table:
            current = table[name]
            if _plain(current) == value:
                continue
            if isinstance(value, Mapping) and isinstance(current, MutableMapping):
                _merge(current, value, changed.get(name) or {}, new_table)
            else:
                table[name] = value
        elif name in changed:
            new = changed[name]
            table[name] = new_table(new) if isinstance(new, Mapping) else new


def _new_tomlkit_table(value: Mapping[str, Any]) -> Any:
    """A table to add, followed by a blank line like the tables a person writes."""
    import tomlkit
    from tomlkit.items import Table

    item = tomlkit.item(dict(value))
    last = item
    while isinstance(last, Table) and last and isinstance(list(last.values())[-1], Table):
        last = list(last.values())[-1]
    if isinstance(last, Table):
        last.add(tomlkit.nl())
    return item
