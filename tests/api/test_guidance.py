"""The guidance for each error code is written once (api/guidance.py) and both surfaces say
it: the app's error report and the command line's hint come from the same entry."""

from __future__ import annotations

import json

import pytest

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import ApiError, error_from_response
from leadtui.api.guidance import GUIDANCE
from leadtui.cli.failures import CLI_WORDS, from_lead_error
from leadtui.ui.model.errors import APP_WORDS, describe


def api_error(status: int, code: str) -> ApiError:
    body = {"error": {"code": code, "message": "said by the server", "request_id": "req_1"}}
    return error_from_response(status, json.dumps(body).encode(), {})


@pytest.mark.parametrize("code", sorted(GUIDANCE))
def test_every_step_is_whole_in_both_surfaces_words(code: str) -> None:
    for words in (APP_WORDS, CLI_WORDS):
        text = GUIDANCE[code].text_for(words)
        assert "{" not in text
        assert "}" not in text
        assert text.endswith(".")


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (403, ErrorCode.SUBSCRIPTION_INACTIVE),
        (403, ErrorCode.DATA_ACCESS_SUSPENDED),
        (409, ErrorCode.INSUFFICIENT_CREDITS),
        (409, ErrorCode.IDEMPOTENCY_CONFLICT),
        (409, ErrorCode.EXPORT_NOT_READY),
        (401, ErrorCode.UNAUTHORIZED),
    ],
)
def test_the_app_and_the_command_line_say_the_same_guidance(status: int, code: str) -> None:
    error = api_error(status, code)
    guidance = GUIDANCE[code]
    report = describe(error)
    assert report.title == guidance.title
    assert report.text.startswith(guidance.meaning)
    assert report.text.endswith(guidance.next_step_for(APP_WORDS))
    failure = from_lead_error(error)
    assert failure.code == code
    assert failure.hint == guidance.next_step_for(CLI_WORDS)
