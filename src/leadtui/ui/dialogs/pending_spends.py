"""PendingSpends: journaled spends whose outcome was never learnt — resend (same key) or discard."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from leadtui.spend.errors import IntentSettled, JournalError, SpendBlocked
from leadtui.spend.intent import SpendIntent, SpendOperation
from leadtui.spend.quote import plural
from leadtui.ui.dialogs.confirm_spend import SENDING
from leadtui.ui.frame.handle import app_handle
from leadtui.ui.frame.spend_flow import resend_intent
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.errors import ErrorReport

KEYS = "r resend · d discard · esc later"


def describe_intent(intent: SpendIntent) -> str:
    """One line: what, how much, whose account, when, and the key's short form."""
    params = intent.params
    if intent.operation is SpendOperation.UNLOCK:
        count = int(params.get("additional_results", 0))
        what = f"Unlock {plural(count, 'result')} of {params.get('search_id')}"
    elif intent.operation is SpendOperation.EXTRACTION_LAUNCH:
        what = f"Launch extraction {params.get('extraction_id')}"
    else:
        what = "Create an extraction"
    cost = "cost not stated" if intent.amount is None else plural(intent.amount, "credit")
    when = intent.created_at.strftime("%Y-%m-%d %H:%M UTC")
    key = f"idempotency key {intent.short_key}…"
    return f"{what} · {cost} · {intent.account.label} · {when} · {key}"


class PendingSpends(ModalScreen[None]):
    """Lists pending intents; `r` resends the highlighted one, `d` discards it."""

    CSS_PATH = stylesheet("spending")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "resend", "Resend (same key)", id="pending_spends.resend"),
        Binding("d", "discard", "Discard", id="pending_spends.discard"),
        Binding("escape", "dismiss", "Decide later", id="pending_spends.close", key_display="Esc"),
    ]

    def __init__(self, intents: list[SpendIntent]) -> None:
        super().__init__()
        self.intents = list(intents)
        self.resending = False
        """A resend is awaiting the server's answer: no key starts or cuts another."""
        self._answer: ErrorReport | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="pending-spends-box") as box:
            box.border_title = "Spends with no known outcome"
            box.border_subtitle = KEYS
            yield Static(
                "These spends were confirmed and written down, but the app never learnt whether "
                "the server took them (a crash, or the connection dropped). Resending uses the "
                "same idempotency key, so the server charges each at most once.",
                id="pending-spends-text",
            )
            yield OptionList(id="pending-spends-list")
            # The last answer, in the dialog the user is looking at (a toast would cover it).
            yield Static(id="pending-spends-answer", markup=False)
        yield Footer()  # this dialog's keys, not the screen's below

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(
            [Option(describe_intent(i), id=i.idempotency_key) for i in self.intents]
        )
        if self.intents:
            options.highlighted = 0
        options.focus()

    def show_error(self, report: ErrorReport) -> None:
        """What the last resend or discard ran into, with its code and request id: in the
        dialog (a toast would cover it), or as a toast once the dialog has closed."""
        self._answer = report
        app_handle(self).note_error(report)
        answer = self.query_one("#pending-spends-answer", Static)
        answer.update("\n".join(part for part in (report.title, report.text, report.meta) if part))
        answer.display = True

    def _chosen(self) -> SpendIntent | None:
        """The highlighted intent, the last answer cleared for its own; None while a resend
        is on its way."""
        index = self.query_one(OptionList).highlighted
        if self.resending or index is None or not 0 <= index < len(self.intents):
            return None
        self._answer = None
        self.query_one("#pending-spends-answer", Static).display = False
        return self.intents[index]

    def _settled(self, intent: SpendIntent) -> None:
        app_handle(self).spend_settled.publish(intent.idempotency_key)
        self.intents = [i for i in self.intents if i.idempotency_key != intent.idempotency_key]
        if not self.intents:
            if self._answer is not None:
                app_handle(self).notify_error(self._answer)  # the dialog that showed it closes
            self.dismiss(None)
        else:
            self._draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a resend awaits the server no key of this dialog works: none is shown.
        return not self.resending

    # Not exclusive: a second key must never cut a resend on its way.
    @work(group="pending-spends-act")
    async def action_resend(self) -> None:
        intent = self._chosen()
        if intent is None:
            return
        self._sending(True)
        try:
            result = await resend_intent(self, intent)
        finally:
            self._sending(False)
        if result is not None:
            self._settled(intent)
        else:
            # Settled meanwhile (another window) leaves the list; a lost answer keeps it here.
            try:
                gate = await app_handle(self).spending()
                current = await asyncio.to_thread(gate.journal.get, intent.idempotency_key)
            except JournalError:
                return
            if current is None or not current.pending:
                self._settled(intent)

    def _sending(self, on: bool) -> None:
        self.resending = on
        self.query_one(OptionList).disabled = on
        self.query_one("#pending-spends-box").border_subtitle = SENDING if on else KEYS
        self.refresh_bindings()

    @work(group="pending-spends-act")
    async def action_discard(self) -> None:
        intent = self._chosen()
        if intent is None:
            return
        try:
            gate = await app_handle(self).spending()
            await asyncio.to_thread(gate.journal.discard, intent.idempotency_key)
        except IntentSettled as error:
            self.show_error(ErrorReport(error.title, error.message))
            self._settled(intent)
            return
        except (SpendBlocked, JournalError) as error:
            self.show_error(ErrorReport(error.title, str(error)))
            return
        self.notify(f"Discarded {intent.short_key}…: it will not be resent.", timeout=4)
        self._settled(intent)
        # Whether the server took it is still unknown: what it may have changed is read again.
        app_handle(self).note_spend()
