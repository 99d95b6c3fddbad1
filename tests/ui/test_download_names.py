"""The app names a download after the export's id, and an id is the server's to choose: one
that is not a single path segment is never asked for, so no file is made from it, anywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from leadtui.config.settings import Settings
from tests.ui import jobs_seed
from tests.ui.pilot import wait_for_text

HOSTILE = "../../escaped"


class RenamedExport(httpx.AsyncBaseTransport):
    """A server whose export `real` is called `../../escaped`: in every answer, and in the
    paths it is asked for (one encoded path segment)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, real: str) -> None:
        self.inner, self.real = inner, real
        self.asked = httpx.URL("/" + HOSTILE.replace("/", "%2F")).raw_path.decode()[1:]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raw = request.url.raw_path.decode().replace(self.asked, self.real)
        request.url = request.url.copy_with(raw_path=raw.encode())
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        if response.headers.get("content-type", "").startswith("application/json"):
            body = body.replace(self.real.encode(), HOSTILE.encode())
        headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-length"]
        return httpx.Response(response.status_code, headers=headers, content=body)


async def test_an_export_id_never_names_a_file_outside_the_folder(
    build_app: Any, sandbox_app: Any, client: Any, sandbox_clock: Any, tmp_path: Path
) -> None:
    (export,) = await jobs_seed.exports(client, 1, size=3)
    sandbox_clock.advance(1)
    downloads = tmp_path / "box" / "in" / "downloads"
    proxy = RenamedExport(httpx.ASGITransport(app=sandbox_app), export.exportId)
    app = build_app(settings=Settings(download_dir=downloads), transport=proxy)
    async with app.run_test(size=(120, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, select=HOSTILE)
        await pilot.press("d")
        # An id that is not one path segment is refused before anything is asked for.
        await wait_for_text(pilot, "An id cannot hold / or \\ (it is one segment of the path)")
    assert list((tmp_path / "box").rglob("*.zip")) == []
