"""How the command line shows a spend decision: the quote's lines, the prompt at a terminal,
`--dry-run` (text or JSON), and a decision that does not send as a failure with its exit code
and hint. Every figure comes from the decision's quote; nothing here decides or sends."""

from __future__ import annotations

from typing import Final

from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure
from leadtui.cli.runtime import Context
from leadtui.spend.decision import Decision, Verdict
from leadtui.spend.errors import Code
from leadtui.spend.quote import Unit, plural

# A decision's refusal as an exit code: what the server would have refused is a conflict (7),
# as its own 409 would be; what the user did not authorize is 10.
_CONFLICTS: Final = frozenset(
    {
        Code.INSUFFICIENT_CREDITS,
        Code.NO_LAUNCHES_LEFT,
        Code.PENDING_SAME_SPEND,
        Code.IDEMPOTENCY_CONFLICT,
    }
)


def quote_lines(decision: Decision, still_locked: int | None) -> list[tuple[str, str]]:
    """The decision as the prompt and `--dry-run` show it, every figure from its quote
    (`still_locked`: results of the search left to unlock, when known)."""
    quote = decision.quote
    if quote.unit is Unit.CREDIT:
        what = f"unlock {plural(quote.units, 'result')} of {quote.target}"
        price = f"{plural(quote.price, 'credit')} per result ({quote.price_source.value})"
    else:
        what = f"launch {quote.target}"
        price = quote.price_source.value
    rows = [
        ("Spend", what),
        ("Price", price),
        ("Total", quote.total_text()),
        ("Balance", quote.balance_text()),
    ]
    if quote.shortfall:
        rows.append(("Short by", plural(quote.shortfall, quote.unit.value)))
    if still_locked is not None and still_locked < quote.units:
        rows.append(("Left to unlock", f"only {plural(still_locked, 'result')}"))
    if quote.unit is Unit.CREDIT:
        rows.append(("Budget", decision.budget.text()))
    rows.append(("Idempotency key", decision.idempotency_key))
    return rows


# The hints that name nothing of the decision's; any other code gets its step when reported.
_HINTS: Final = {
    Code.QUOTE_CHANGED: "Run it again to be quoted the new price; nothing was sent at either.",
    Code.INSUFFICIENT_CREDITS: "Buy credits on the account page, or unlock fewer results.",
    Code.IDEMPOTENCY_CONFLICT: "Choose a new --idempotency-key for a new spend.",
}


def _hint(decision: Decision) -> str | None:
    quote, code = decision.quote, decision.code
    launch = quote.unit is Unit.LAUNCH
    if code is Code.OVER_CEILING:
        flag = "--max-launches" if launch else "--max-credits"
        return f"Rerun with {flag} {quote.total} to authorize it, or ask for fewer."
    if code is Code.PRICE_UNKNOWN:
        return "Run it at a terminal to confirm the estimate: no ceiling covers an unknown price."
    if code in (Code.CONFIRMATION_REQUIRED, Code.OVER_BUDGET):
        if launch:
            return "Rerun with --max-launches 1 (or --yes), or at a terminal to be asked."
        return (
            f"Rerun with --max-credits {quote.total} (or more) to authorize this amount, "
            "or run it at a terminal to be asked."
        )
    if code is Code.PENDING_SAME_SPEND:
        return f"leadtui pending resend {decision.pending_key}"
    return _HINTS.get(code) if code is not None else None


def decision_failure(decision: Decision) -> CliFailure:
    """A decision that is not "send", as the command line reports it (nothing was sent)."""
    code = decision.code or Code.CONFIRMATION_REQUIRED
    details = decision.refusal_details()
    if decision.pending_key is not None:
        details["pending_key"] = decision.pending_key
    return CliFailure(
        code.value,
        decision.message,
        Exit.CONFLICT if code in _CONFLICTS else Exit.CONFIRMATION_REQUIRED,
        hint=_hint(decision),
        details=details,
    )


def ask(ctx: Context, decision: Decision, still_locked: int | None) -> None:
    """The prompt at a terminal (default No), on stderr; raises the refusal unless the answer
    is yes."""
    lines = quote_lines(decision, still_locked)
    width = max(len(name) for name, _ in lines)
    for name, value in lines:
        ctx.deps.stderr.write(f"  {name.ljust(width)}  {value}\n")
    ctx.deps.stderr.write(f"  {decision.message}\n")
    answer = ctx.deps.ask(f"Spend {decision.quote.total_text()}? [y/N] ")
    if answer.strip().lower() not in ("y", "yes"):
        raise CliFailure(
            Code.CONFIRMATION_REQUIRED,
            "Cancelled: nothing was sent.",
            Exit.CONFIRMATION_REQUIRED,
            hint="Answer y to spend.",
            details={"quote": decision.quote.to_json(), "decision": decision.to_json()},
        )


def show_dry_run(ctx: Context, decision: Decision, still_locked: int | None) -> int:
    """`--dry-run`: print the decision and its quote (JSON with --json); nothing is sent."""
    if ctx.out.machine:
        by = decision.authorized_by
        ctx.out.document(
            {
                "dry_run": True,
                "quote": decision.quote.to_json(),
                "decision": decision.to_json(),
                "authorized_by": by.value if by is not None else None,
                "refused": None if decision.sends or decision.code is None else decision.code.value,
                "still_locked": still_locked,
            }
        )
        return 0
    if decision.sends:
        how = f"yes ({decision.authorized_by})"
    elif decision.verdict is Verdict.ASK:
        how = f"asks a person first ({decision.code})"
    else:
        how = f"not authorized ({decision.code})"
    rows = [
        *quote_lines(decision, still_locked),
        ("Authorized", how),
        ("Decision", decision.message),
    ]
    ctx.out.fields([*rows, ("Sent", "nothing (dry run)")])
    return 0
