"""How many approvals were asked of this account, and answered, in a window.

The one place the digest reads approval requests (rows of the journal): where they are kept
may change, what is counted does not.
"""

from __future__ import annotations

from collections import Counter

from leadtui.digest.marks import Seen
from leadtui.digest.report import ApprovalCounts
from leadtui.spend.approvals import ApprovalDesk, Ruling
from leadtui.spend.journal import SpendJournal
from leadtui.spend.origin import spend_origin


def approval_counts(
    journal: SpendJournal, seen: Seen, since: float, until: float
) -> ApprovalCounts:
    """Requests asked in [since, until) and answers given then (an asker that stopped
    waiting counts as expired). Blocking sqlite reads: call it from a thread."""
    requests = ApprovalDesk(journal).listed().requests
    origin = spend_origin(seen.origin)
    asked = 0
    answered: Counter[Ruling] = Counter()
    for request in requests:
        if request.profile != seen.profile or spend_origin(request.origin) != origin:
            continue
        if not request.account.same_as(seen.account):
            continue
        if since <= request.asker.at.timestamp() < until:
            asked += 1
        answer = request.answer
        if answer is not None and since <= answer.by.at.timestamp() < until:
            answered[answer.verdict] += 1
    return ApprovalCounts(
        asked, answered[Ruling.APPROVED], answered[Ruling.DENIED], answered[Ruling.TIMED_OUT]
    )
