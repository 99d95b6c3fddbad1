"""Content-Encoding as a weapon: stacked gzip, bombs, corrupt streams, encoded archives.

Each answer comes from a hostile server on loopback, so httpx parses real bytes. Memory is
measured with tracemalloc around the request: a cap that is checked only after inflating
would pass the "typed error" assertions and still cost gigabytes.
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from leadtui.api.attempt import MAX_JSON_BYTES
from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError
from tests.api.hostile import (
    KEY,
    HostileServer,
    Seen,
    gzip_of_zeros,
    gzip_times,
    json_response,
    raw_response,
)
from tests.api.test_download_faults import leftovers

MIB = 1024 * 1024
KEY_URL = "https://api.example.com"
# Far below what inflating the bombs would take, comfortably above one capped JSON body.
MEMORY_BOUND = 4 * MAX_JSON_BYTES
PAGE = {"data": [{"exportId": "e1", "status": "ready"}], "next_cursor": None}


async def refusal(answer: Callable[[Seen], bytes]) -> tuple[ApiError, int]:
    """The bad_response `answer` gets from `client.exports.list()`, and the most memory Python
    held meanwhile."""
    async with HostileServer(answer) as url, LeadClient(url, KEY, max_retries=0) as client:
        tracemalloc.start()
        try:
            with pytest.raises(ApiError) as caught:
                await client.exports.list()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert caught.value.code == "bad_response"
    return caught.value, peak


def encoded(body: bytes, coding: str) -> Callable[[Seen], bytes]:
    return lambda seen: raw_response(200, body, [("Content-Encoding", coding)])


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """128 MiB of zeros as about 130 KB of gzip."""
    return gzip_of_zeros(128 * MIB)


async def test_stacked_gzip_is_refused_before_inflating_anything(bomb: bytes) -> None:
    # gzip three times over: a few hundred bytes on the wire, 128 MiB once undone.
    tiny = gzip_times(bomb, 2)
    assert len(tiny) < 2_000
    error, peak = await refusal(encoded(tiny, "gzip, gzip, gzip"))
    assert "encoded 3 times" in error.message
    assert peak < MEMORY_BOUND


async def test_stacked_encodings_in_separate_headers_count_the_same(bomb: bytes) -> None:
    twice = gzip_times(bomb, 1)
    headers = [("Content-Encoding", "gzip"), ("Content-Encoding", "gzip")]
    error, _ = await refusal(lambda seen: raw_response(200, twice, headers))
    assert "encoded 2 times" in error.message


async def test_a_single_gzip_bomb_is_stopped_at_the_cap_while_inflating(bomb: bytes) -> None:
    error, peak = await refusal(encoded(bomb, "gzip"))
    assert "larger than 8 MiB" in error.message
    assert peak < MEMORY_BOUND


@pytest.mark.parametrize(
    ("coding", "body", "says"),
    [
        ("gzip", gzip.compress(b'{"data": [')[:-12], "end early"),
        ("gzip", b"\x1f\x8b\x08\x00 this is not deflate data", "corrupt"),
        ("deflate", b"not a zlib stream", "corrupt"),
        ("br", b"\x8b\x03\x80{}\x03", "'br' was not asked for"),
        ("compress", b"{}", "'compress' was not asked for"),
    ],
    ids=["truncated-gzip", "corrupt-gzip", "corrupt-deflate", "brotli", "compress"],
)
async def test_undecodable_bodies_are_bad_responses_not_crashes(
    coding: str, body: bytes, says: str
) -> None:
    error, _ = await refusal(encoded(body, coding))
    assert says in error.message


@pytest.mark.parametrize(
    ("coding", "pack"),
    [
        ("gzip", lambda data: gzip.compress(data)),
        ("x-gzip", lambda data: gzip.compress(data)),
        ("deflate", lambda data: zlib.compress(data)),
        ("GZIP", lambda data: gzip.compress(data[:10]) + gzip.compress(data[10:])),
        ("identity", lambda data: data),
    ],
    ids=["gzip", "x-gzip", "deflate", "two-gzip-members", "identity"],
)
async def test_honest_encodings_still_read(coding: str, pack: Callable[[bytes], bytes]) -> None:
    body = json_response(PAGE).split(b"\r\n\r\n", 1)[1]
    server = HostileServer(encoded(pack(body), coding))
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        page = await client.exports.list()
    assert [export.exportId for export in page.items] == ["e1"]
    assert server.seen[0].headers["accept-encoding"] == "gzip, deflate"


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


async def test_an_encoded_archive_is_refused_and_leaves_no_file(downloads: Path) -> None:
    # 65 KB on the wire would have become a 64 MiB file: archives are asked for unencoded.
    archive = gzip_of_zeros(64 * MIB)
    server = HostileServer(encoded(archive, "gzip"))
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        with pytest.raises(ApiError, match="gzip-encoded") as caught:
            await client.exports.download("exp_1", downloads / "leads.zip")
    assert caught.value.code == "bad_response"
    assert server.seen[0].headers["accept-encoding"] == "identity"
    assert leftovers(downloads) == []


async def test_an_unencoded_archive_is_saved_byte_for_byte(downloads: Path) -> None:
    archive = b"PK\x03\x04" + bytes(range(256)) * 64
    server = HostileServer(
        lambda seen: raw_response(200, archive, [("Content-Type", "application/zip")])
    )
    async with server as url, LeadClient(url, KEY, max_retries=0) as client:
        saved = await client.exports.download("exp_1", downloads / "leads.zip")
    assert leftovers(downloads) == ["leads.zip"]
    assert saved.read_bytes() == archive


async def test_an_answer_built_in_memory_is_not_decoded_twice() -> None:
    """A swapped-in transport's answer was already decoded by httpx when it was made."""
    body = json_response(PAGE).split(b"\r\n\r\n", 1)[1]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, content=gzip.compress(body), headers={"Content-Encoding": "gzip"}
        )

    async with LeadClient(KEY_URL, KEY, transport=httpx.MockTransport(handler)) as client:
        page = await client.exports.list()
    assert [export.exportId for export in page.items] == ["e1"]
