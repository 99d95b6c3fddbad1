"""Hostile server answers: each ends in a typed LeadError or a safe result, within its time.

MockTransport stands in for what the sandbox cannot produce (proxy pages, huge or broken
bodies); the drip runs over a real loopback socket, because the point is httpx's per-read
timeout, which a byte a second never trips.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import re
import time
import zipfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest

import leadtui
from leadtui.api.attempt import MAX_JSON_BYTES
from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError, LeadError, RequestTimeout, ServerError

KEY = "sk_live_hostile_0123456789"
TWENTY_MB = 20 * 1024 * 1024
HTML_502 = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


async def no_sleep(seconds: float) -> None:
    await asyncio.sleep(0)


def mock_client(handler: Callable[[httpx.Request], httpx.Response], **kwargs: object) -> LeadClient:
    return LeadClient(
        "https://api.example.com",
        KEY,
        transport=httpx.MockTransport(handler),
        sleep=no_sleep,
        **kwargs,  # type: ignore[arg-type]
    )


class CountedStream(httpx.AsyncByteStream):
    """`total` bytes in 64 KiB chunks, counting how many the client actually pulled."""

    def __init__(self, total: int, chunk: bytes = b"x" * 65536) -> None:
        self.total = total
        self.chunk = chunk
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while self.sent < self.total:
            self.sent += len(self.chunk)
            yield self.chunk


# (what, status, body or stream factory, headers)
BROKEN_BODIES = [
    ("an HTML 502 page", 502, HTML_502, {"Content-Type": "text/html"}),
    ("truncated JSON", 200, b'{"data": [{"exportId": "e1", "stat', {}),
    ("wrong types", 200, b'{"data": [{"exportId": 7, "status": ["ready"]}], "next_cursor": 1}', {}),
    ("a JSON null", 200, b"null", {}),
    ("a 20 MB page", 200, b"[" + b" " * TWENTY_MB + b"]", {}),
    ("a 20 MB proxy page", 502, b"<html>" + b"x" * TWENTY_MB, {}),
]


@pytest.mark.parametrize(
    ("status", "body", "headers"),
    [case[1:] for case in BROKEN_BODIES],
    ids=[case[0] for case in BROKEN_BODIES],
)
async def test_broken_bodies_become_typed_errors(
    status: int, body: bytes, headers: dict[str, str]
) -> None:
    answer = httpx.Response(status, content=body, headers={"X-Request-Id": "req_h", **headers})
    async with mock_client(lambda request: answer, max_retries=1) as client:
        async with asyncio.timeout(5):
            with pytest.raises(ApiError) as caught:
                await client.exports.list()
    assert caught.value.code == "bad_response"
    assert caught.value.status == status
    assert isinstance(caught.value, ServerError) == (status >= 500)
    assert len(caught.value.message) < 600  # a 20 MB page is not echoed into the UI


@pytest.mark.parametrize("declared", [True, False], ids=["with-length", "chunked"])
async def test_an_oversized_json_answer_is_cut_off_not_read_whole(declared: bool) -> None:
    stream = CountedStream(TWENTY_MB)
    headers = {"Content-Length": str(TWENTY_MB)} if declared else {}

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=headers, stream=stream)

    async with mock_client(handler, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            await client.me()
    assert caught.value.code == "bad_response"
    assert "larger than 8 MiB" in caught.value.message
    assert stream.sent <= MAX_JSON_BYTES + 65536


async def test_a_gzip_bomb_is_measured_after_decoding() -> None:
    bomb = gzip.compress(b"0" * TWENTY_MB)  # ~20 KB on the wire
    assert len(bomb) < 100_000

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=bomb)

    async with mock_client(handler, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            await client.exports.list()
    assert caught.value.code == "bad_response"


async def test_a_large_but_legitimate_page_still_parses() -> None:
    items = ",".join(
        f'{{"exportId": "e{i}", "status": "ready", "pad": "{"p" * 900}"}}' for i in range(100)
    )
    body = f'{{"data": [{items}], "next_cursor": null}}'.encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"Retry-After": "2"})

    async with mock_client(handler) as client:
        page = await client.exports.list(limit=100)
    assert len(page.items) == 100
    assert page.poll_after == 2.0  # headers survive the capped read


# --- A server that drips, on a real loopback socket ---------------------------------------


class DripServer:
    """Answers every request with headers at once, then one body byte per `interval` s."""

    def __init__(self, content_type: bytes, interval: float = 1.0) -> None:
        self.content_type = content_type
        self.interval = interval
        self.server: asyncio.Server | None = None
        self.stopped = asyncio.Event()
        self.handlers: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.stopped.set()
        self.server.close()
        await self.server.wait_closed()
        await asyncio.gather(*self.handlers)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: "
                + self.content_type
                + b"\r\nContent-Length: 100000\r\n\r\n"
            )
            while not self.stopped.is_set():
                writer.write(b"0")
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopped.wait(), self.interval)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


@pytest.mark.slow  # waits out a deadline
async def test_a_byte_a_second_is_cut_off_at_the_deadline_for_json_and_downloads(
    tmp_path: Path,
) -> None:
    (tmp_path / "dl").mkdir()
    # Per-read timeout 1.5 s: longer than the drip's 1 s gaps, so only the deadline can help.
    async with (
        DripServer(b"application/json") as json_url,
        DripServer(b"application/zip") as zip_url,
        LeadClient(json_url, KEY, timeout=1.5, max_retries=0) as json_client,
        LeadClient(zip_url, KEY, timeout=1.5, max_retries=0) as zip_client,
    ):
        deadline = 3 * 1.5
        started = time.monotonic()
        results = await asyncio.gather(
            json_client.me(),
            zip_client.exports.download("exp_1", tmp_path / "dl" / "leads.zip"),
            return_exceptions=True,
        )
        took = time.monotonic() - started
    assert all(isinstance(r, RequestTimeout) for r in results), results
    assert deadline - 0.5 < took < deadline + 2.0
    assert tree(tmp_path / "dl") == []  # no half-written archive, no `.part`


async def test_retries_share_the_request_s_one_deadline() -> None:
    # Three retries allowed, each would wait its own deadline: the request's one deadline is
    # spent on the first attempt, so no second connection is ever made.
    drip = DripServer(b"application/json", interval=0.2)
    async with drip as url, LeadClient(url, KEY, timeout=0.4, max_retries=3) as client:
        with pytest.raises(RequestTimeout):
            await client.me()
    assert len(drip.handlers) == 1


# --- Archives ------------------------------------------------------------------------------


def evil_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../../escaped.txt", "outside")
        archive.writestr("/etc/leadtui-absolute.txt", "absolute")
        archive.writestr("leads.csv", "name\nBakery\n")
    return buffer.getvalue()


async def test_a_zip_with_traversal_names_is_saved_whole_at_the_target_and_never_unpacked(
    tmp_path: Path,
) -> None:
    archive = evil_zip()
    root = tmp_path / "root"
    downloads = root / "a" / "b"
    downloads.mkdir(parents=True)

    def handler(request: httpx.Request) -> httpx.Response:
        # The server also suggests a file name that climbs out; the caller's path wins.
        disposition = 'attachment; filename="../../escaped.zip"'
        return httpx.Response(200, content=archive, headers={"Content-Disposition": disposition})

    async with mock_client(handler) as client:
        saved = await client.exports.download("exp_1", downloads / "leads.zip")
    assert saved == downloads / "leads.zip"
    assert tree(root) == ["a", "a/b", "a/b/leads.zip"]
    assert tree(Path("/etc"), "leadtui-absolute.txt") == []
    assert zipfile.ZipFile(saved).namelist()[0] == "../../escaped.txt"  # saved byte for byte


def tree(root: Path, pattern: str = "*") -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob(pattern))


def python_sources() -> Iterator[Path]:
    root = Path(leadtui.__file__).parent
    for path in root.rglob("*.py"):
        if "sandbox" not in path.relative_to(root).parts:  # the sandbox only builds archives
            yield path


def test_the_app_never_unpacks_archives() -> None:
    """Downloads stay whole ZIP files; if this ever changes, member names need checking."""
    unpacking = re.compile(r"zipfile|tarfile|extractall|unpack_archive")
    offenders = [p.name for p in python_sources() if unpacking.search(p.read_text())]
    assert offenders == []


def answering(
    status: int, body: bytes, headers: dict[str, str]
) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(status, content=body, headers=headers)


async def test_every_hostile_answer_is_a_lead_error_not_a_crash() -> None:
    """The same answers through a keyed spend: the caller keeps the key to resend."""
    for _, status, body, headers in BROKEN_BODIES[:4]:
        async with mock_client(answering(status, body, headers), max_retries=1) as client:
            with pytest.raises(LeadError) as caught:
                await client.exports.create("srch_1", 3, idempotency_key="spend-key-1")
        assert caught.value.idempotency_key == "spend-key-1"
