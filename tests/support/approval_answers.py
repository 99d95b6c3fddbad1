"""The running app's answer to a request, written as the app writes it (for tests that play
the app without running it)."""

from __future__ import annotations

from leadtui.spend.approvals import Answer, ApprovalDesk, ApprovalRequest, Party, Ruling


def answer_as_the_app(desk: ApprovalDesk, request: ApprovalRequest, verdict: Ruling) -> bool:
    """Answer `request` with `verdict` about exactly what it asks; False when it was answered
    first by someone else."""
    answer = Answer(
        verdict,
        Party.here("app", "leadtui app"),
        request.idempotency_key,
        request.request_hash,
        request.quote.total,
        request.account,
    )
    return desk.answer(request.id, answer)
