"""The state dir (spend journal, opt-in key file) is private, and a path where it cannot be
made is a one-line error naming the path and the reason."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadtui.config.errors import ConfigError, StateDirError
from leadtui.config.files import ensure_private_dir
from leadtui.config.settings import state_dir


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.usefixtures("permissive_umask")
def test_it_is_made_0700_whatever_the_umask() -> None:
    assert not state_dir().exists()
    assert ensure_private_dir(state_dir()) == state_dir()
    assert mode_of(state_dir()) == 0o700


def test_an_existing_one_that_others_may_enter_is_tightened_never_loosened() -> None:
    state_dir().mkdir(parents=True)
    state_dir().chmod(0o755)
    ensure_private_dir(state_dir())
    assert mode_of(state_dir()) == 0o700
    state_dir().chmod(0o500)  # the user's own choice, stricter than ours: kept
    ensure_private_dir(state_dir())
    assert mode_of(state_dir()) == 0o500
    state_dir().chmod(0o700)


def test_a_file_in_the_way_is_a_typed_one_line_error() -> None:
    state_dir().parent.mkdir(parents=True, exist_ok=True)
    state_dir().write_text("")
    with pytest.raises(StateDirError) as caught:
        ensure_private_dir(state_dir())
    assert isinstance(caught.value, ConfigError)
    assert str(caught.value) == (
        f"{state_dir()}: cannot create the state directory: a file is in the way (not a directory)"
    )


def test_a_file_where_a_parent_should_be_names_the_errno() -> None:
    blocked = Path(os.environ["XDG_STATE_HOME"])
    blocked.rmdir()
    blocked.write_text("")
    with pytest.raises(StateDirError) as caught:
        ensure_private_dir(state_dir())
    assert str(caught.value) == (
        f"{state_dir()}: cannot create the state directory: Not a directory (ENOTDIR)"
    )
