"""Keys that cannot travel in a header: a smart quote pasted into an API key crashed the client
and put the whole key into the library's error; a non-ASCII idempotency key raised a raw
UnicodeEncodeError. Both are refused where they enter, in words that never hold the key."""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable

import pytest
from pydantic import SecretStr, ValidationError

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError, InvalidIdempotencyKey, LeadError
from leadtui.api.keys import api_key_problem, idempotency_key_problem
from leadtui.api.transport import Transport
from tests.api.hostile import HostileServer, json_response
from tests.support.idempotency import IdempotencyParams

GOOD = "sk_live_0123456789abcdefSECRET"
# A paste from a chat or a word processor: curly quotes, an accent, a no-break space, a newline.
PASTED = {
    "smart quote": "sk_live_0123”456789abcdefSECRET",
    "accent": "sk_live_0123é456789abcdefSECRET",
    "no-break space": "sk_live_0123\u00a0456789abcdefSECRET",
    "newline": "sk_live_0123\n456789abcdefSECRET",
    "tab": "sk_live_0123\t456789abcdefSECRET",
    "emoji": "sk_live_0123🔑456789abcdefSECRET",
}


def windows(key: str, width: int = 4) -> set[str]:
    return {key[i : i + width] for i in range(len(key) - width + 1)}


def everything_said(error: BaseException) -> str:
    """All an error can show: message, repr, args, attributes, its chain, the traceback."""
    chain = [error.__cause__, error.__context__]
    return " ".join(
        [
            *traceback.format_exception(error),
            str(error),
            repr(error),
            repr(error.args),
            repr(vars(error)),
            *(repr(link) + repr(getattr(link, "args", ())) for link in chain if link is not None),
        ]
    )


def holds_no_part_of(key: str, said: str) -> bool:
    secret = key.replace("sk_live_", "")
    return key not in said and not any(window in said for window in windows(secret))


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        (PASTED["smart quote"], "character 13 is not printable ASCII"),
        (PASTED["newline"], "character 13 is not printable ASCII"),
        ("”sk_live_abc", "character 1 is not printable ASCII"),
        ("sk_live abc", "character 8 is a space"),
        ("", "the key is empty"),
        ("  \t ", "the key is empty"),
        ("k" * 1025, "the key is 1025 characters long; keys have at most 1024"),
    ],
)
def test_api_key_problem_names_the_position_never_the_key(key: str, reason: str) -> None:
    assert api_key_problem(key) == reason
    assert "\n" not in reason


@pytest.mark.parametrize("key", [GOOD, "sk_demo_full", "k", "~" * 1024])
def test_printable_ascii_keys_are_accepted(key: str) -> None:
    assert api_key_problem(key) is None


@pytest.mark.parametrize("key", PASTED.values(), ids=PASTED.keys())
@pytest.mark.parametrize("wrapped", [False, True], ids=["str", "SecretStr"])
def test_the_client_refuses_a_pasted_key_without_repeating_it(key: str, wrapped: bool) -> None:
    with pytest.raises(ConfigurationError) as caught:
        LeadClient("https://api.example.com", SecretStr(key) if wrapped else key)
    error = caught.value
    assert "character 13 is not printable ASCII" in error.message
    assert holds_no_part_of(key, everything_said(error))
    assert error.__cause__ is None
    assert error.__context__ is None


@pytest.mark.parametrize("key", PASTED.values(), ids=PASTED.keys())
async def test_a_transport_built_around_the_client_still_never_leaks_the_key(key: str) -> None:
    # Whoever builds the transport directly skips the client's check: the request is refused
    # by our own error, with httpx's UnicodeEncodeError (which holds the header) dropped.
    server = HostileServer(lambda seen: json_response({}))
    async with server as url:
        transport = Transport(url, SecretStr(key), timeout=5.0, max_retries=3)
        try:
            with pytest.raises(LeadError) as caught:
                await transport.request("GET", "/me")
        finally:
            await transport.aclose()
    error = caught.value
    assert isinstance(error, ConfigurationError)
    assert "the Authorization header cannot be encoded" in error.message
    assert error.__cause__ is None
    assert error.__context__ is None
    assert server.requests == 0
    assert holds_no_part_of(key, everything_said(error))


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("clé-1", "character 3 of the idempotency key is not printable ASCII"),
        ("order”7", "character 6 of the idempotency key is not printable ASCII"),
        ("a\nb", "character 2 of the idempotency key is not printable ASCII"),
        (" padded", "the idempotency key starts or ends with a space"),
        ("", "the idempotency key is empty"),
        ("k" * 129, "the idempotency key has 129 characters; at most 128"),
    ],
)
def test_idempotency_key_problem_explains_each_refusal(key: str, reason: str) -> None:
    assert idempotency_key_problem(key) == reason


@pytest.mark.parametrize("key", ["k", "k" * 128, "order 17", "0b7a2c1e-uuid", "~!@#$%^&*()"])
def test_printable_idempotency_keys_within_bounds_are_accepted(key: str) -> None:
    assert idempotency_key_problem(key) is None
    assert IdempotencyParams(idempotency_key=key).idempotency_key == key


def test_the_request_model_applies_the_same_rule() -> None:
    with pytest.raises(ValidationError, match="character 3 of the idempotency key"):
        IdempotencyParams(idempotency_key="clé-1")


KeyedCall = Callable[[LeadClient, str], Awaitable[object]]
KEYED_CALLS: dict[str, KeyedCall] = {
    "exports.create": lambda c, k: c.exports.create("s1", 1, idempotency_key=k),
    "extractions.create": lambda c, k: c.extractions.create(
        {
            "categories": ["bakery"],
            "countries": ["FR"],
            "localisations": ["Paris"],
            "enrichment_sources": ["website"],
        },
        idempotency_key=k,
    ),
    "extractions.launch": lambda c, k: c.extractions.launch("x1", idempotency_key=k),
    "extractions.pause": lambda c, k: c.extractions.pause("x1", idempotency_key=k),
    "extractions.resume": lambda c, k: c.extractions.resume("x1", idempotency_key=k),
    "extractions.stop": lambda c, k: c.extractions.stop("x1", idempotency_key=k),
}


@pytest.mark.parametrize("call", KEYED_CALLS.values(), ids=KEYED_CALLS.keys())
@pytest.mark.parametrize("key", ["clé-1", "order”7", "", "k" * 129, "tab\there"])
async def test_every_keyed_call_refuses_a_bad_idempotency_key_before_sending(
    call: KeyedCall, key: str
) -> None:
    server = HostileServer(lambda seen: json_response({}))
    async with server as url, LeadClient(url, GOOD) as client:
        with pytest.raises(InvalidIdempotencyKey) as caught:
            await call(client, key)
    assert isinstance(caught.value, ConfigurationError)
    assert caught.value.message.startswith("Nothing was sent: ")
    assert server.requests == 0
