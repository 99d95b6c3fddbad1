"""Why a spend asked of the running app was not sent: one type per code, with the facts.

Each refusal has a short `title` (the heading every surface prints first) and a `message` that
goes on from it, never repeating it: a surface shows "title: message". The facts (the quote,
who answered, how long the asker waited) ride along, so a surface can say what to do next in
its own words without reading the message.
"""

from __future__ import annotations

from typing import ClassVar

from leadtui.spend.approval_records import Answer, Party, Verdict
from leadtui.spend.errors import SpendBlocked
from leadtui.spend.quote import Quote


class ApprovalRefused(SpendBlocked):
    """No yes came from the app for this spend: nothing was sent. `code` is what every surface
    reports (the command line's JSON error, the tool result), `quote` what was asked."""

    code: ClassVar[str] = "denied_in_app"

    def __init__(
        self,
        message: str,
        quote: Quote,
        *,
        by: Party | None = None,
        waited: float | None = None,
    ) -> None:
        super().__init__(message)
        self.quote = quote
        self.by = by
        """Who answered (the app that denied, the approval that did not match)."""
        self.waited = waited
        """How long the asker waited, in seconds (its timeout)."""

    @property
    def headline(self) -> str:
        """`Denied in the app: leadtui app (pid 4242) said no to 40 credits. Nothing was sent.`"""
        return f"{self.title}: {self.message}"


class DeniedInApp(ApprovalRefused):
    title = "Denied in the app"
    code = "denied_in_app"


class ApprovalTimedOut(ApprovalRefused):
    title = "No answer from the app"
    code = "approval_timeout"


class ApprovalMismatch(ApprovalRefused):
    """The answer is not about the spend this process holds (a request file changed under
    it: another account, another amount, another body)."""

    title = "Approval does not match"
    code = "approval_mismatch"


def refusal_of(answer: Answer, quote: Quote, waited: float) -> ApprovalRefused:
    """The refusal an answer other than a matching yes makes (`waited`: the asker's timeout)."""
    total, who = quote.total_text(), answer.by
    if answer.verdict is Verdict.APPROVED:
        return ApprovalMismatch(
            f"the approval by {who.label} is for another spend than the {total} this process "
            "asked (the request file was changed). Nothing was sent.",
            quote,
            by=who,
            waited=waited,
        )
    if answer.verdict is Verdict.DENIED:
        return DeniedInApp(
            f"{who.label} said no to {total}. Nothing was sent.", quote, by=who, waited=waited
        )
    return ApprovalTimedOut(
        f"nobody answered within {waited:.0f} s ({total} asked). Nothing was sent.",
        quote,
        waited=waited,
    )
