"""Extractions on the jobs screen: the draft form, edit, launch through ConfirmSpend, create and
launch, pause/resume, stop with confirmation, and results that grow live then stay archived."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from textual.widgets import Input, Static, TextArea

from leadtui.config.settings import Settings
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.extraction_form import ExtractionForm
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.screens.jobs import JobsScreen
from leadtui.ui.widgets.job_tables import ExtractionTable
from tests.ui import jobs_seed
from tests.ui.pilot import settle, wait_for_screen
from tests.ui.screen import notices, screen_text, toasts_text, wait_until, widget_text

API = "/api/v1"


class QuotaGoneOnCreate(httpx.AsyncBaseTransport):
    """The sandbox, where the account's launches run out just as a create-and-launch reaches
    it (after the spend decision read them): the server refuses it, not the decision."""

    def __init__(self, sandbox_app: Any) -> None:
        self.sandbox = httpx.ASGITransport(app=sandbox_app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == f"{API}/extractions":
            used_up = httpx.Request(
                "PATCH",
                "http://127.0.0.1/_sandbox/accounts/acct_demo",
                json={"extraction_quota": 0},
            )
            assert (await self.sandbox.handle_async_request(used_up)).status_code == 200
        return await self.sandbox.handle_async_request(request)


@pytest.fixture
def jobs_app(build_app: Any, tmp_path: Any) -> Any:
    return build_app(settings=Settings(download_dir=tmp_path / "downloads"))


def _fill(form: ExtractionForm, **fields: str) -> None:
    for name, value in fields.items():
        widget = form.query_one(f"#x-{name}")
        if isinstance(widget, Input):
            widget.value = value
        else:
            assert isinstance(widget, TextArea)
            widget.text = value


async def test_draft_form_checks_urls_and_serp_config_then_saves_and_edits(
    jobs_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        form = await wait_for_screen(pilot, ExtractionForm)
        _fill(form, categories="bakery, florist", countries="FR", urls="not a url")
        await pilot.press("ctrl+s")
        await pilot.pause()
        errors = str(form.query_one("#x-errors", Static).render())
        assert "✗ urls.0" in errors
        _fill(form, urls="https://example.com/shops", serp_config="[1, 2]")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "must be a JSON object" in str(form.query_one("#x-errors", Static).render())
        _fill(form, serp_config='{"depth": 2}')
        await pilot.press("ctrl+s")
        await settle(pilot)
        table = screen.query_one(ExtractionTable)
        draft = table.focused_row
        assert draft is not None
        assert draft.status == "draft"
        assert draft.extra("serp_config") == {"depth": 2}
        assert screen.active_bindings["m"].enabled
        assert screen.active_bindings["l"].enabled
        assert not screen.active_bindings["x"].enabled  # a draft cannot be stopped
        await pilot.press("m")
        form = await wait_for_screen(pilot, ExtractionForm)
        assert form.query_one("#x-categories", Input).value == "bakery, florist"
        _fill(form, categories="bakery", localisations="Lyon")
        await pilot.press("ctrl+s")
        await settle(pilot)
        edited = table.focused_row
        assert edited is not None
        assert edited.extra("categories") == ["bakery"]
        assert edited.extra("localisations") == ["Lyon"]
    log = await jobs_seed.requests_log(sandbox_http)
    assert [r["method"] for r in log if r["path"].startswith(f"{API}/extractions/")] == [
        "POST",  # /extractions/drafts
        "PATCH",  # /extractions/{id}/draft
    ]


async def test_launch_goes_through_confirm_spend_with_an_idempotency_key(
    jobs_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("l")
        await wait_for_screen(pilot, ConfirmSpend)
        # Nothing sent yet but the fresh read of the launches left (GET /me).
        fresh = (await jobs_seed.requests_log(sandbox_http))[before:]
        assert [(r["method"], r["path"].rsplit("/", 1)[-1]) for r in fresh] == [("GET", "me")]
        await pilot.press("y")
        await settle(pilot)
        launched = screen.query_one(ExtractionTable).focused_row
        assert launched is not None
        assert launched.status in ("queued", "running")
    launches = [
        r
        for r in await jobs_seed.requests_log(sandbox_http)
        if r["path"] == f"{API}/extractions/{draft.extractionId}/launch"
    ]
    assert len(launches) == 1
    assert launches[0]["idempotency_key"]


async def test_create_and_launch_in_one_step_shows_launches_not_credits(
    jobs_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await jobs_seed.set_quota(sandbox_http, 5)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.app.refresh_identity()  # launches left, as GET /me says
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        form = await wait_for_screen(pilot, ExtractionForm)
        _fill(form, categories="bakery", countries="FR", urls="not a url")
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert "✗ urls.0" in screen_text(pilot.app)
        _fill(form, urls="")  # localisations and enrichment_sources left empty: allowed
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: "Launch (y)" in screen_text(pilot.app))
        text = screen_text(pilot.app)
        assert "1 launch of the account's extraction quota" in text
        assert "5 launches left → 4 after" in text
        assert "credits" not in text.split("Confirm")[1]
        await pilot.press("y")
        await settle(pilot)
        await wait_until(pilot, lambda: "│ ext_000001  bakery · FR " in screen_text(pilot.app))
    posts = [
        r
        for r in await jobs_seed.requests_log(sandbox_http)
        if r["method"] == "POST" and r["path"] == f"{API}/extractions"
    ]
    assert len(posts) == 1
    assert posts[0]["idempotency_key"]


async def test_pause_resume_and_stop_with_confirmation(
    jobs_app: Any, client: Any, sandbox_clock: Any
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.2)  # running
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, ExtractionTable, extraction.extractionId)
        table = screen.query_one(ExtractionTable)

        async def status() -> str:
            await settle(pilot)
            job = table.focused_row
            assert job is not None
            return job.status or ""

        assert await status() == "running"
        await pilot.press("z")
        assert await status() == "paused"
        await pilot.press("z")
        assert await status() == "running"
        await pilot.press("x")
        dialog = await wait_for_screen(pilot, ConfirmText)
        assert "cannot be resumed" in str(dialog.query_one(".confirm-text", Static).render())
        await pilot.press("escape")  # cancelled: still running
        assert await status() == "running"
        await pilot.press("x")
        await wait_for_screen(pilot, ConfirmText)
        await pilot.press("y")
        assert await status() == "stopped"
        assert not screen.active_bindings["z"].enabled
        assert any(title == "■ Extraction stopped" for title, _ in notices(pilot.app))


async def test_results_grow_while_running_and_stay_once_archived(
    jobs_app: Any, client: Any, sandbox_clock: Any
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.4)  # running, part of the results found
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, extraction.extractionId)
        await pilot.press("v")
        results = await wait_for_screen(pilot, JobResultsScreen)
        await settle(pilot)
        early = results.table.rows.row_count
        assert early > 0
        assert "live" in str(results.query_one("#results-status", Static).render())
        sandbox_clock.advance(2)  # completed: every result found, then archived
        watcher = pilot.app.jobs
        await watcher.tick()
        await settle(pilot)
        await pilot.press("end")  # every row read, in place
        await settle(pilot)
        final = results.table.rows.row_count
        assert final > early
        assert "archived" in str(results.query_one("#results-status", Static).render())
        ids = [(results.table.shown.record(i) or {}).get("leadId") for i in range(final)]
        assert len(set(ids)) == final  # read on from where it was: no lead twice


async def test_esc_with_unsaved_changes_asks_before_discarding(jobs_app: Any) -> None:
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        await wait_for_screen(pilot, ExtractionForm)
        await pilot.press("escape")  # nothing typed: closes at once
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, JobsScreen))
        await pilot.press("e")
        await wait_for_screen(pilot, ExtractionForm)
        await pilot.press(*"bakery")
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Discard changes?" in screen_text(pilot.app))
        assert "The changes to the new extraction are not saved." in screen_text(pilot.app)
        await pilot.press("escape")  # keep editing: nothing lost
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ExtractionForm))
        assert "bakery" in screen_text(pilot.app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Discard (y)" in screen_text(pilot.app))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, JobsScreen))


async def test_typing_after_end_in_the_draft_editor_appends(jobs_app: Any, client: Any) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        await pilot.press("m")
        form = await wait_for_screen(pilot, ExtractionForm)
        await pilot.pause()
        await pilot.press("end", "comma", "space", *"florist")
        await wait_until(pilot, lambda: "bakery, florist" in screen_text(pilot.app))
        assert form.query_one("#x-categories", Input).value == "bakery, florist"


async def test_an_incomplete_draft_says_what_is_missing_before_any_confirmation(
    jobs_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    draft = await client.extractions.create_draft({"categories": ["garage"], "countries": ["NL"]})
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("l")
        await wait_until(pilot, lambda: "Draft incomplete" in screen_text(pilot.app))
        said = " ".join(line.strip("│ ") for line in screen_text(pilot.app).splitlines())
        assert "localisations: missing; enrichment_sources: missing" in said
        assert not isinstance(pilot.app.screen, ConfirmSpend)
        assert len(await jobs_seed.requests_log(sandbox_http)) == before  # nothing sent
        await pilot.press("m")  # fixed in the form (empty lists are allowed), then launched
        await wait_for_screen(pilot, ExtractionForm)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("l")
        await wait_until(pilot, lambda: "Launch (y)" in screen_text(pilot.app))
        assert "Draft incomplete" not in screen_text(pilot.app)


async def test_no_launches_left_is_said_before_any_confirmation(
    jobs_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    await jobs_seed.set_quota(sandbox_http, 0)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.app.refresh_identity()
        await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        await pilot.press("l")
        await wait_until(pilot, lambda: "No launches left" in screen_text(pilot.app))
        said = " ".join(line.strip("│ ") for line in screen_text(pilot.app).splitlines())
        assert "The account's extraction quota is used up (no launches left)" in said
        assert "code no_launches_left" in said
        assert not isinstance(pilot.app.screen, ConfirmSpend)


async def test_launches_used_up_since_the_dialog_opened_are_refused_before_sending(
    jobs_app: Any, client: Any, sandbox_http: httpx.AsyncClient
) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        await pilot.press("l")
        await wait_until(pilot, lambda: "Launch (y)" in screen_text(pilot.app))
        await jobs_seed.set_quota(sandbox_http, 0)  # used up since the dialog opened
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("y")  # re-checked before sending: none left, nothing sent
        await wait_until(pilot, lambda: "No launches left" in screen_text(pilot.app))
        said = " ".join(line.strip("│ ") for line in screen_text(pilot.app).splitlines())
        assert "The account's extraction quota is used up (no launches left)" in said
        assert "code no_launches_left" in said
        fresh = (await jobs_seed.requests_log(sandbox_http))[before:]
        assert [r for r in fresh if r["method"] == "POST"] == []


async def test_a_launch_shows_it_is_sending_once_confirmed(
    build_app: Any, sandbox_app: Any, client: Any, tmp_path: Any
) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    held = jobs_seed.Held(sandbox_app, hold=f"{API}/extractions/{draft.extractionId}/launch")
    app = build_app(transport=held, settings=Settings(download_dir=tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        await pilot.press("l")
        await wait_until(pilot, lambda: "Launch (y)" in screen_text(app))
        assert "⟳" not in screen_text(app)  # deciding: nothing is being sent
        await pilot.press("y")
        await wait_until(pilot, lambda: held.held == 1)
        # The confirmation stays up, saying it is sending, until the server answers.
        await wait_until(pilot, lambda: "Sending… (same key on every retry)" in screen_text(app))
        assert "it cannot be cancelled now" in screen_text(app)
        assert not screen.active_bindings["l"].enabled
        held.release.set()
        await wait_until(pilot, lambda: "⟳" not in screen_text(app))


async def test_no_launches_left_keeps_the_new_extraction_form_and_what_was_typed(
    jobs_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await jobs_seed.set_quota(sandbox_http, 0)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.app.refresh_identity()
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        before = len(await jobs_seed.requests_log(sandbox_http))
        await pilot.press("e")
        form = await wait_for_screen(pilot, ExtractionForm)
        await pilot.press(*"bakery", "tab", *"FR")
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: "No launches left" in screen_text(pilot.app))
        said = " ".join(line.strip("│ ") for line in screen_text(pilot.app).splitlines())
        assert "ctrl+s saves it as a draft to launch later" in said
        assert pilot.app.screen is form  # still open, with what was typed
        assert "bakery" in screen_text(pilot.app)
        assert len(await jobs_seed.requests_log(sandbox_http)) == before  # nothing sent
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "│ ext_000001  bakery · FR " in screen_text(pilot.app))


async def test_tab_into_a_filled_field_puts_the_cursor_after_its_text(
    jobs_app: Any, client: Any
) -> None:
    draft = await client.extractions.create_draft(jobs_seed.EXTRACTION)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, draft.extractionId)
        await pilot.press("m")
        form = await wait_for_screen(pilot, ExtractionForm)
        countries = form.query_one("#x-countries", Input).value
        await pilot.press("tab", *", BE")
        await wait_until(pilot, lambda: f"{countries}, BE" in screen_text(pilot.app))


async def test_a_pasted_column_fills_a_list_field_one_value_a_line(jobs_app: Any) -> None:
    from textual import events

    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        form = await wait_for_screen(pilot, ExtractionForm)
        field = form.query_one("#x-categories", Input)
        field.post_message(events.Paste("bakery\nflorist\n\nbutcher\n"))
        await wait_until(pilot, lambda: "bakery, florist, butcher" in screen_text(pilot.app))


class LosesPauseAnswers(httpx.AsyncBaseTransport):
    """The sandbox; each pause is answered 503 after the server paused (`acts=True`), or
    before it saw the request (`acts=False`): what a run of failed retries ends with."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport, *, acts: bool) -> None:
        self.sandbox = sandbox
        self.acts = acts

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "PATCH":
            return await self.sandbox.handle_async_request(request)
        if self.acts:
            await self.sandbox.handle_async_request(request)
        error = {"code": "internal_error", "message": "unavailable", "request_id": "req_lost"}
        return httpx.Response(503, json={"error": error}, headers={"X-Request-Id": "req_lost"})


@pytest.mark.parametrize("acts", [True, False], ids=["server-paused", "server-never-saw-it"])
async def test_a_pause_whose_answer_was_lost_says_what_happened_and_names_it(
    build_app: Any, client: Any, sandbox_app: Any, sandbox_clock: Any, acts: bool
) -> None:
    extraction = await jobs_seed.extraction(client)
    sandbox_clock.advance(0.2)  # running
    job_id = extraction.extractionId
    lossy = LosesPauseAnswers(httpx.ASGITransport(app=sandbox_app), acts=acts)
    app = build_app(transport=lossy)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await jobs_seed.open_jobs(pilot, ExtractionTable, job_id)
        await pilot.press("z")
        if acts:  # it worked: said as a success, never as a failure
            said = f"Extraction {job_id} is paused."
            await wait_until(pilot, lambda: said in toasts_text(app))
            assert "Server error" not in toasts_text(app)
        else:  # it failed: the toast says which action
            said = f"Pausing {job_id} failed: Server error"
            await wait_until(pilot, lambda: said in toasts_text(app))
            assert "HTTP 503 · code internal_error" in toasts_text(app)
        assert (await client.extractions.get(job_id)).status == ("paused" if acts else "running")


async def test_a_launch_refused_for_launches_opens_the_form_again_with_what_was_typed(
    jobs_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await jobs_seed.set_quota(sandbox_http, 5)
    async with jobs_app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.app.refresh_identity()  # 5 launches left, as GET /me said
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        await wait_for_screen(pilot, ExtractionForm)
        await pilot.press(*"bakery", "tab", *"FR")
        await jobs_seed.set_quota(sandbox_http, 0)  # used up since GET /me was read
        await pilot.press("ctrl+l")  # the decision reads the launches left afresh: none
        form = await wait_for_screen(pilot, ExtractionForm)
        # Who refused (the spend decision, before sending) and why, in its words and code.
        await wait_until(pilot, lambda: "Not sent" in widget_text(pilot.app, "#x-errors"))
        said = widget_text(pilot.app, "#x-errors")
        assert "✗ Not sent: the spend decision refused the launch (no_launches_left)." in said
        assert "The account's extraction quota is used up (no launches left)." in said
        assert "Nothing was sent. ctrl+s saves this as a draft to launch later." in said
        assert "server" not in said
        assert form.query_one("#x-categories", Input).value == "bakery"
        assert form.query_one("#x-countries", Input).value == "FR"
        await pilot.press("ctrl+s")  # kept as a draft
        await wait_until(pilot, lambda: "│ ext_000001  bakery · FR " in screen_text(pilot.app))


async def test_a_launch_the_server_refuses_for_launches_says_the_server_refused_it(
    build_app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    await jobs_seed.set_quota(sandbox_http, 5)
    app = build_app(transport=QuotaGoneOnCreate(sandbox_app))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await jobs_seed.open_jobs(pilot, ExtractionTable)
        await pilot.press("e")
        await wait_for_screen(pilot, ExtractionForm)
        await pilot.press(*"bakery", "tab", *"FR")
        await pilot.press("ctrl+l")  # the decision reads 5 launches left: it asks
        await wait_for_screen(pilot, ConfirmSpend)
        await pilot.press("y")
        form = await wait_for_screen(pilot, ExtractionForm)
        await wait_until(pilot, lambda: "refused" in widget_text(pilot.app, "#x-errors"))
        said = widget_text(pilot.app, "#x-errors")
        assert "✗ The server refused the launch (extraction_unavailable):" in said
        assert "Nothing was launched. ctrl+s saves this as a draft to launch later." in said
        assert form.query_one("#x-categories", Input).value == "bakery"
