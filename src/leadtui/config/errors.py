"""What can be wrong with settings, profiles, keys and the files that hold them: each error is
one line, where first (`<file>, line 3: <what is wrong>`, `LEADTUI_PROFILES: <what is wrong>`),
shown as it is by every surface, and never holds an API key.
"""

from __future__ import annotations


class ConfigError(Exception):
    """Settings, a profile, a key or a file of ours cannot be used."""

    def __init__(self, where: str, problem: str, *, line: int | None = None) -> None:
        self.where = where  # the file, directory or LEADTUI_* variable at fault
        self.problem = problem  # in words: no key, nor a value that could be one
        self.line = line  # in the file, when known
        at = f"{where}, line {line}" if line is not None else where
        super().__init__(f"{at}: {problem}")


class SettingsFileError(ConfigError):
    """The config file cannot be read or saved, or does not hold valid settings."""


class SettingsEnvironmentError(ConfigError):
    """A LEADTUI_* variable holds a value the settings cannot take."""


class StateDirError(ConfigError):
    """The private directory for the spend journal and the opt-in key file cannot be made."""


class InvalidApiKey(ConfigError):
    """A key that could never travel in a header: not printable ASCII, empty, too long."""
