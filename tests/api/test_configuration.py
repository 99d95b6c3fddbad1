"""Building a client: where the URL and key come from, and which URLs a key may travel to."""

from __future__ import annotations

import subprocess
import sys

import pytest

from leadtui.api.client import LeadClient
from leadtui.api.errors import ConfigurationError
from leadtui.api.keys import mask_key, new_idempotency_key, short_key
from leadtui.api.urls import validate_base_url


@pytest.mark.parametrize(
    ("typed", "normalised"),
    [
        ("https://api.example.com", "https://api.example.com"),
        ("  HTTPS://API.Example.com/  ", "https://api.example.com"),
        ("https://example.com/lead/", "https://example.com/lead"),
        ("https://example.com/lead/api/v1/", "https://example.com/lead"),
        ("http://127.0.0.1:8765", "http://127.0.0.1:8765"),
        ("http://localhost/", "http://localhost"),
        ("http://[::1]:9000", "http://[::1]:9000"),
    ],
)
def test_base_urls_are_normalised(typed: str, normalised: str) -> None:
    assert validate_base_url(typed) == normalised


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("http://api.example.com", "TLS"),
        ("http://10.0.0.5:8000", "TLS"),
        ("ftp://api.example.com", "https://"),
        ("api.example.com", "https://"),
        ("", "empty"),
        ("https://user:hunter2@api.example.com", "password"),
        ("https://api.example.com/?x=1", "query"),
        ("http://[::1", "not valid"),
    ],
)
def test_unsafe_or_malformed_urls_are_refused_with_a_reason(typed: str, says: str) -> None:
    with pytest.raises(ConfigurationError, match=says) as caught:
        validate_base_url(typed)
    assert "hunter2" not in str(caught.value)


def test_missing_key_is_a_clear_error() -> None:
    with pytest.raises(ConfigurationError, match="LEADTUI_API_KEY"):
        LeadClient("https://api.example.com")
    with pytest.raises(ConfigurationError, match="No API key"):
        LeadClient("https://api.example.com", "   ")


def test_missing_url_is_a_clear_error() -> None:
    with pytest.raises(ConfigurationError, match="LEADTUI_BASE_URL"):
        LeadClient(api_key="sk_demo_full")


def test_plain_http_to_a_remote_host_is_refused_by_the_client() -> None:
    with pytest.raises(ConfigurationError, match="TLS"):
        LeadClient("http://api.example.com", "sk_demo_full")


async def test_url_and_key_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEADTUI_BASE_URL", "https://env.example.com/")
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_from_environment")
    async with LeadClient() as client:
        assert client.base_url == "https://env.example.com"
        assert client.key_masked == "…ment"


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("", "••••••••"),
        ("sk_demo_low", "••••••••"),
        ("sk_demo_full", "…full"),
        ("sk_live_0123456789abcde", "…bcde"),
        ("sk_live_0123456789abcdef", "sk_l…cdef"),
    ],
)
def test_masked_keys_show_at_most_four_characters_below_24(key: str, shown: str) -> None:
    assert mask_key(key) == shown
    revealed = len(shown.replace("…", "")) if "…" in shown else 0
    assert revealed <= (4 if len(key) < 24 else 8)


def test_idempotency_keys_are_fresh_valid_and_shortened_for_the_modal() -> None:
    keys = {new_idempotency_key() for _ in range(100)}
    assert len(keys) == 100
    assert all(1 <= len(k) <= 128 for k in keys)
    key = keys.pop()
    assert short_key(key) == key[:8]


def test_importing_the_client_loads_neither_textual_nor_the_sandbox() -> None:
    code = (
        "import sys; "
        "from leadtui.api.client import LeadClient; "
        "print(*(any(m == p or m.startswith(p + '.') for m in sys.modules) "
        "for p in ('textual', 'leadtui.sandbox', 'fastapi')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["False", "False", "False"]
