"""Each screen at 100×30 and 80×24: apps built by make_app against the sandbox, time frozen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.pilot import settle

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((80, 24), id="80x24")]
# The smallest terminal the main screens are laid out for (an SSH pane).
WITH_SMALL = [*SIZES, pytest.param((60, 20), id="60x20")]


pytestmark = pytest.mark.usefixtures("fixed_request_ids")


def _keys(*keys: str) -> Any:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", WITH_SMALL)
def test_account(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(), terminal_size=size, run_before=_keys())


@pytest.mark.parametrize("size", SIZES)
def test_account_read_only_key(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(build_app("sk_demo_readonly"), terminal_size=size, run_before=_keys())


@pytest.mark.parametrize("size", SIZES)
def test_sign_in(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(None), terminal_size=size, run_before=_keys())


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(build_app(), terminal_size=size, run_before=_keys("question_mark"))


@pytest.mark.parametrize("size", SIZES)
def test_key_rejected(snap_compare: Any, build_app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(build_app("sk_demo_revoked"), terminal_size=size, run_before=_keys())
