"""The API key never shows: not in a repr, an error, its message, or a log record."""

from __future__ import annotations

import logging

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from tests.api.faults import KEY, Script, Sleeps, error_body, scripted_client

FAULTS: list[httpx.Response | Exception] = [
    httpx.Response(401, json=error_body("unauthorized")),
    httpx.Response(403, content=b"<html>forbidden</html>"),
    httpx.Response(503, headers={"Retry-After": "1"}, json=error_body("internal_error")),
    httpx.Response(429, headers={"Retry-After": "300"}, json=error_body("rate_limited")),
    httpx.Response(200, content=b"{not json"),
    httpx.ConnectError(f"refused while sending Authorization: Bearer {KEY}"[:20]),
    httpx.ReadTimeout("slow"),
]


def _everything_said(err: LeadError) -> str:
    return " ".join([str(err), repr(err), err.message, repr(err.args), repr(err.__dict__)])


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: getattr(f, "status_code", type(f).__name__))
async def test_key_absent_from_errors_and_logs(
    fault: httpx.Response | Exception, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    script = Script([fault])
    async with scripted_client(script, Sleeps(), max_retries=1) as client:
        with pytest.raises(LeadError) as caught:
            await client.exports.create("s1", 2)
        with pytest.raises(LeadError) as caught_read:
            await client.me()
        shown = repr(client)
    for err in (caught.value, caught_read.value):
        assert KEY not in _everything_said(err)
        assert err.__cause__ is None or KEY not in repr(err.__cause__)
    assert KEY not in shown
    assert caplog.records, "the transport logs what it does"
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert "Bearer" not in record.getMessage()


async def test_debug_log_names_method_path_status_and_request_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="leadtui.api")
    script = Script([httpx.Response(404, json=error_body("not_found", "req_42"))])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(LeadError):
            await client.searches.get("nope")
    messages = [r.getMessage() for r in caplog.records if r.name == "leadtui.api"]
    assert any("GET /api/v1/searches/nope -> 404 request_id=req_42" in m for m in messages)


def test_repr_and_masked_key_show_only_the_ends() -> None:
    client = LeadClient("https://api.example.com", KEY)
    assert client.key_masked == "sk_l…CRET"
    assert KEY not in repr(client)
    assert KEY not in repr(vars(client))
    assert "sk_l…CRET" in repr(client)
