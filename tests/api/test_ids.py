"""An id that cannot be one path segment is refused before anything is sent: servers decode
`%2F` and resolve `.` and `..` before routing, so such an id would name another resource."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError
from leadtui.api.urls import ID_MAX, id_problem, segment

BAD_IDS = {
    "slash": "srch_000001/results",
    "up": "..",
    "here": ".",
    "up-and-over": "../me",
    "backslash": "..\\me",
    "newline": "srch_1\nX-Injected: 1",
    "escape": "srch_\x1b[2J",
    "nul": "srch_\x00",
    "empty": "",
    "oversized": "s" * (ID_MAX + 1),
    "ten-megabytes": "s" * 10_000_000,
    "not-text": "exp_\udcff",
}

Call = Callable[[LeadClient, str, Path], Awaitable[Any]]
CALLS: dict[str, Call] = {
    "get_search": lambda c, i, _: c.searches.get(i),
    "search_results": lambda c, i, _: c.searches.results(i),
    "unlock": lambda c, i, _: c.exports.create(i, 3),
    "get_export": lambda c, i, _: c.exports.get(i),
    "export_results": lambda c, i, _: c.exports.results(i),
    "retry_export": lambda c, i, _: c.exports.retry(i),
    "download": lambda c, i, tmp: c.exports.download(i, tmp / "a.zip"),
    "custom_download": lambda c, i, tmp: c.exports.custom_download(i, tmp / "b.zip", ["company"]),
    "get_extraction": lambda c, i, _: c.extractions.get(i),
    "update_draft": lambda c, i, _: c.extractions.update_draft(i, {}),
    "launch": lambda c, i, _: c.extractions.launch(i),
    "pause": lambda c, i, _: c.extractions.pause(i),
    "resume": lambda c, i, _: c.extractions.resume(i),
    "stop": lambda c, i, _: c.extractions.stop(i),
    "extraction_results": lambda c, i, _: c.extractions.results(i),
}


@pytest.mark.parametrize("bad", list(BAD_IDS.values()), ids=list(BAD_IDS))
def test_an_id_that_is_not_one_segment_has_a_reason(bad: str) -> None:
    assert id_problem(bad) is not None
    with pytest.raises(ConfigurationError, match="nothing was sent") as refused:
        segment(bad)
    assert len(refused.value.message) < 200  # the reason, never the value


@pytest.mark.parametrize("good", ["srch_000001", "exp_a.b", "ext-1~x", "a?b#c", "%2F", "..a"])
def test_an_opaque_id_is_sent_encoded_in_one_segment(good: str) -> None:
    assert id_problem(good) is None
    assert "/" not in segment(good)


@pytest.mark.parametrize("call", list(CALLS), ids=list(CALLS))
async def test_every_call_with_an_id_refuses_before_sending(
    make_client: Any, sandbox_http: httpx.AsyncClient, tmp_path: Path, call: str
) -> None:
    client = make_client("sk_demo_full")
    folder = tmp_path / "downloads"
    folder.mkdir()
    for bad in BAD_IDS.values():
        with pytest.raises(ConfigurationError, match="nothing was sent"):
            await CALLS[call](client, bad, folder)
    logged = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert logged == []
    assert list(folder.iterdir()) == []
