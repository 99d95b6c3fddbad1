"""A write whose answer is lost: a search create is called unknown and looked up first; any
such write says it may have gone through and where to look, never to try again."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from textual.widgets import Input

from leadtui.ui.dialogs.extraction_form import ExtractionForm
from leadtui.ui.model.search_draft import ItemDraft
from leadtui.ui.screens.search_builder import NewSearchScreen
from leadtui.ui.screens.search_detail import SearchDetailScreen
from leadtui.ui.widgets.job_tables import ExtractionTable
from tests.ui import jobs_seed
from tests.ui.pilot import wait_for_screen
from tests.ui.screen import notices, screen_text, toasts_text, wait_until


class LostCreates(httpx.AsyncBaseTransport):
    """The sandbox, but the next create fails (`after` the server acted, or before) and the
    next `looks` listings of searches fail too."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport, *, after: bool) -> None:
        self.sandbox = sandbox
        self.after = after
        self.lose = 1
        self.looks = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        listing = request.method == "GET" and request.url.path.endswith("/searches")
        if listing and self.looks:
            self.looks -= 1
            raise httpx.ConnectError("connection refused", request=request)
        creating = request.method == "POST" and request.url.path.endswith("/searches")
        if not creating or self.lose <= 0:
            return await self.sandbox.handle_async_request(request)
        self.lose -= 1
        if self.after:
            await self.sandbox.handle_async_request(request)
            raise httpx.ReadError("connection reset by peer", request=request)
        raise httpx.ConnectError("connection refused", request=request)


async def _fill_and_create(app: Any, pilot: Any) -> NewSearchScreen:
    await app.workers.wait_for_complete()
    await pilot.press("3")
    await wait_until(pilot, lambda: isinstance(app.screen, NewSearchScreen))
    screen = app.screen
    assert isinstance(screen, NewSearchScreen)
    for section, name in (
        ("activities", "Plumber"),
        ("countries", "France"),
        ("localisations", "Paris"),
    ):
        screen.draft.section(section).append(ItemDraft(name=name))
    screen._draw()
    await pilot.pause()
    assert "✓ valid" in screen_text(app)
    await pilot.press("ctrl+s")
    return screen


async def _searches_on_server(client: Any) -> list[Any]:
    return list((await client.searches.list()).items)


async def test_lost_answer_after_the_server_created_it_finds_and_opens_it(
    build_app: Any, client: Any, sandbox_app: Any
) -> None:
    app = build_app(transport=LostCreates(httpx.ASGITransport(app=sandbox_app), after=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await _fill_and_create(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        messages = " ".join(words for _, words in notices(app))
        assert "The server did create it: srch_000001" in messages
        assert "nothing was created twice" in messages
        assert "srch_000001 · Plumber · France · Paris" in screen_text(app)
    assert len(await _searches_on_server(client)) == 1


@pytest.mark.parametrize(
    ("after", "looks", "title", "says"),
    [
        pytest.param(
            False, 0, "Not created", "the create did not happen. ctrl+s creates it", id="before"
        ),
        pytest.param(
            True,
            1,
            "Outcome still unknown",
            "ctrl+s looks again before creating anything",
            id="look-up-fails",
        ),
    ],
)
async def test_ctrl_s_after_a_lost_answer_creates_one_search_in_all(
    build_app: Any,
    client: Any,
    sandbox_app: Any,
    after: bool,
    looks: int,
    title: str,
    says: str,
) -> None:
    transport = LostCreates(httpx.ASGITransport(app=sandbox_app), after=after)
    app = build_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        transport.looks = looks  # the look-up after the lost create fails too
        screen = await _fill_and_create(app, pilot)
        await wait_until(pilot, lambda: title in screen_text(app))
        assert says in screen_text(app)
        assert app.screen is screen
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
    assert len(await _searches_on_server(client)) == 1


async def test_a_lost_answer_says_it_may_have_gone_through_and_where_to_look(
    build_app: Any, client: Any, sandbox_app: Any, sandbox_http: Any
) -> None:
    """Never "rerun": the create is not resent, the screen says it may have gone through and
    names the Searches screen; the server got one POST."""
    transport = LostCreates(httpx.ASGITransport(app=sandbox_app), after=True)
    app = build_app(transport=transport)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        transport.looks = 1  # the look-up after the lost create fails too
        await _fill_and_create(app, pilot)
        await wait_until(pilot, lambda: "Outcome still unknown" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert "Searches (2) lists what the server has" in text
        assert "rerun" not in text
        assert "try again" not in text
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    posts = [r for r in log if r["method"] == "POST"]
    assert len(posts) == 1
    assert len(await _searches_on_server(client)) == 1


class LostDraft(httpx.AsyncBaseTransport):
    """The sandbox, but the answer to the first draft saved is lost after the server saved it."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport) -> None:
        self.sandbox = sandbox
        self.lose = 1

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.sandbox.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/drafts") and self.lose:
            self.lose -= 1
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


async def test_a_lost_answer_to_a_draft_says_where_to_look_not_to_try_again(
    build_app: Any, sandbox_app: Any, sandbox_http: Any
) -> None:
    app = build_app(transport=LostDraft(httpx.ASGITransport(app=sandbox_app)))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        form = await wait_for_screen(pilot, ExtractionForm)
        form.query_one("#x-categories", Input).value = "bakery"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "Answer lost" in toasts_text(app))
        said = " ".join(toasts_text(app).split())
        assert "may have gone through" in said
        assert "Jobs (4) shows whether it did; doing it again may do it twice" in said
        assert "try again" not in said
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    assert len([r for r in log if r["method"] == "POST"]) == 1  # not resent
