"""Downloads are all or nothing: a broken or cancelled transfer leaves no file, not even a
temporary one."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from leadtui.api.errors import Conflict, ConnectionFailed, RequestTimeout
from tests.api.faults import Script, Sleeps, error_body, scripted_client

CHUNK = b"PK" + b"\0" * 4094


class BrokenStream(httpx.AsyncByteStream):
    """Some bytes, then the link fails the way it does on a flaky SSH tunnel."""

    def __init__(self, chunks: int, failure: Exception) -> None:
        self.chunks = chunks
        self.failure = failure

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.chunks):
            yield CHUNK
        raise self.failure


class StalledStream(httpx.AsyncByteStream):
    """One chunk, then nothing until the download is cancelled."""

    def __init__(self, started: asyncio.Event) -> None:
        self.started = started

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield CHUNK
        self.started.set()
        await asyncio.Event().wait()
        yield CHUNK


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize(
    ("failure", "error"),
    [(httpx.ReadError("reset"), ConnectionFailed), (httpx.ReadTimeout("slow"), RequestTimeout)],
)
async def test_broken_transfer_leaves_nothing(
    downloads: Path, failure: Exception, error: type[Exception]
) -> None:
    script = Script([httpx.Response(200, stream=BrokenStream(3, failure))])
    target = downloads / "export.zip"
    progress: list[tuple[int, int | None]] = []
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(error, match="after 12288 bytes"):
            await client.exports.download(
                "e1", target, on_progress=lambda d, t: progress.append((d, t))
            )
    assert leftovers(downloads) == []
    assert progress[-1] == (3 * len(CHUNK), None)


async def test_short_body_against_content_length_leaves_nothing(downloads: Path) -> None:
    script = Script([httpx.Response(200, headers={"Content-Length": "100000"}, content=CHUNK)])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ConnectionFailed, match="of 100000 bytes"):
            await client.exports.download("e1", downloads / "export.zip")
    assert leftovers(downloads) == []


async def test_cancelled_download_leaves_nothing(downloads: Path) -> None:
    started = asyncio.Event()
    script = Script([httpx.Response(200, stream=StalledStream(started))])
    async with scripted_client(script, Sleeps()) as client:
        task = asyncio.create_task(client.exports.download("e1", downloads / "export.zip"))
        await started.wait()
        [arriving] = leftovers(downloads)  # a new file of a name nobody could plant
        assert re.fullmatch(r"\.export\.zip\.\w{8}\.part", arriving)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert leftovers(downloads) == []


async def test_failed_download_keeps_an_earlier_complete_file(downloads: Path) -> None:
    target = downloads / "export.zip"
    target.write_bytes(b"the earlier, complete archive")
    script = Script([httpx.Response(200, stream=BrokenStream(1, httpx.ReadError("reset")))])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(ConnectionFailed):
            await client.exports.download("e1", target)
    assert target.read_bytes() == b"the earlier, complete archive"
    assert leftovers(downloads) == ["export.zip"]


async def test_error_status_creates_no_file(downloads: Path) -> None:
    script = Script([httpx.Response(409, json=error_body("export_not_ready"))])
    async with scripted_client(script, Sleeps()) as client:
        with pytest.raises(Conflict) as caught:
            await client.exports.download("e1", downloads / "export.zip")
    assert caught.value.code == "export_not_ready"
    assert leftovers(downloads) == []


async def test_download_is_retried_before_the_body_starts(downloads: Path) -> None:
    script = Script(
        [
            httpx.ConnectError("refused"),
            httpx.Response(503, json=error_body("internal_error")),
            httpx.Response(200, content=CHUNK * 3),
        ]
    )
    target = downloads / "export.zip"
    async with scripted_client(script, Sleeps()) as client:
        saved = await client.exports.download("e1", target)
    assert saved == target
    assert target.read_bytes() == CHUNK * 3
    assert leftovers(downloads) == ["export.zip"]
