"""The spending tools end to end (the official client over stdio, `leadtui mcp` as a process,
a real `leadtui sandbox`): the authorization matrix, the same idempotency key twice, a price
that counts for no budget, a short balance, and what the user is shown when asked."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mcp.types as types
from mcp.client.session import ClientSession

from leadtui.api.contract import ErrorCode
from leadtui.api.guidance import GUIDANCE
from tests.mcp_tools.conftest import Machine, Sandbox, error_of, ok, text_of

EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}


class User:
    """The person behind the client: answers each question as told, and keeps what it read."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.questions.append(params.message)
        action = self.answers.pop(0)
        if action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        if action == "accept-no":
            return types.ElicitResult(action="accept", content={"confirm": False})
        return types.ElicitResult(action=action)  # type: ignore[arg-type]


def launches_left(sandbox: Sandbox, key: str = "sk_demo_full") -> int:
    launches = sandbox.control("GET", "/api/v1/me", key=key)["extraction_launches"]
    return int(launches["remaining"])


async def unlock(
    machine: Machine, session: ClientSession, search_id: str, results: int, **more: Any
) -> types.CallToolResult:
    return await machine.call(
        session, "unlock_results", {"search_id": search_id, "results": results, **more}
    )


@contextmanager
def stated_price(sandbox: Sandbox, price: object) -> Iterator[None]:
    sandbox.control("PUT", "/_sandbox/pricing", {"stated": price})
    try:
        yield
    finally:
        sandbox.control("PUT", "/_sandbox/pricing", {"stated": 1})


async def test_without_a_budget_or_a_way_to_ask_nothing_is_sent(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    draft = sandbox.control("POST", "/api/v1/extractions/drafts", EXTRACTION, key="sk_demo_full")
    credits, launches = sandbox.credits(), launches_left(sandbox)
    spent_before = len(sandbox.spending_requests())
    async with machine.session() as session:
        refused = await unlock(machine, session, search_id, 3)
        error = error_of(refused)
        assert error["code"] == "authorization_required"
        assert (error["quote"]["total"], error["quote"]["balance"]) == (3, credits)
        assert "--max-credits 3" in text_of(refused)
        assert "Ask the user" in text_of(refused)
        for tool, arguments in (
            ("create_extraction", {"request": EXTRACTION}),
            ("launch_extraction", {"extraction_id": draft["extractionId"]}),
        ):
            error = error_of(await machine.call(session, tool, arguments))
            assert error["code"] == "authorization_required"
            assert error["quote"]["unit"] == "launch"

        dry = ok(await unlock(machine, session, search_id, 3, dry_run=True))
        assert (dry["sent"], dry["quote"]["total"]) == (False, 3)
        assert dry["decision"]["verdict"] == "refuse"
    assert (sandbox.credits(), launches_left(sandbox)) == (credits, launches)
    assert len(sandbox.spending_requests()) == spent_before


async def test_the_user_is_asked_and_only_a_yes_sends_exactly_the_quote(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    user = User("decline", "cancel", "accept-no", "accept")
    credits = sandbox.credits()
    async with machine.session(elicitation=user) as session:
        for answer in ("declined", "cancelled", "no"):
            error = error_of(await unlock(machine, session, search_id, 4))
            assert (error["code"], error["answer"]) == ("authorization_declined", answer)
            assert sandbox.credits() == credits
        sent = ok(await unlock(machine, session, search_id, 4))
    assert sent["sent"] is True
    assert sent["record"]["exportId"]
    assert sandbox.credits() == credits - sent["quote"]["total"] == credits - 4
    shown = user.questions[-1]
    assert f'Unlock 4 results of search "{search_id} · ' in shown
    assert "Cost: 4 credits." in shown
    assert f"Balance: {credits:,} credits → {credits - 4:,} credits." in shown
    assert "sk_demo_full" not in "\n".join([*user.questions, *machine.received])


async def test_within_the_budget_it_is_sent_without_asking_and_past_it_asks(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    draft = sandbox.control("POST", "/api/v1/extractions/drafts", EXTRACTION, key="sk_demo_full")
    user = User("decline", "decline")
    credits, launches = sandbox.credits(), launches_left(sandbox)
    async with machine.session(
        "--max-credits", "5", "--max-launches", "2", elicitation=user
    ) as session:
        first = ok(await unlock(machine, session, search_id, 3))
        assert first["decision"]["authorized_by"] == "allowance"
        assert first["allowance_left"] == {"credits": 2, "launches": 2}
        assert user.questions == []
        assert sandbox.credits() == credits - 3

        past = error_of(await unlock(machine, session, search_id, 3))
        assert past["code"] == "authorization_declined"
        assert len(user.questions) == 1
        assert sandbox.credits() == credits - 3

        launched = ok(
            await machine.call(
                session, "launch_extraction", {"extraction_id": draft["extractionId"]}
            )
        )
        assert launched["record"]["extractionId"] == draft["extractionId"]
        created = ok(await machine.call(session, "create_extraction", {"request": EXTRACTION}))
        assert created["record"]["extractionId"] != draft["extractionId"]
        assert created["allowance_left"] == {"credits": 2, "launches": 0}
        assert launches_left(sandbox) == launches - 2
        again = error_of(await machine.call(session, "create_extraction", {"request": EXTRACTION}))
        assert again["code"] == "authorization_declined"  # asked: no launches allowed are left
        assert len(user.questions) == 2
    assert launches_left(sandbox) == launches - 2


async def test_the_same_idempotency_key_twice_debits_once(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    credits = sandbox.credits()
    async with machine.session("--max-credits", "10") as session:
        first = ok(await unlock(machine, session, search_id, 2, idempotency_key="agent-try-1"))
        again = ok(await unlock(machine, session, search_id, 2, idempotency_key="agent-try-1"))
        other = error_of(
            await unlock(machine, session, search_id, 3, idempotency_key="agent-try-1")
        )
    assert again["replayed"] is True
    assert again["record"]["exportId"] == first["record"]["exportId"]
    assert again["allowance_left"] == first["allowance_left"] == {"credits": 8, "launches": 0}
    assert other["code"] == "idempotency_conflict"
    assert sandbox.credits() == credits - 2
    keyed = [r for r in sandbox.spending_requests() if r["idempotency_key"] == "agent-try-1"]
    assert len(keyed) == 1


async def test_a_price_not_stated_usably_is_never_within_a_budget(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search()
    credits = sandbox.credits()
    user = User("decline")
    with stated_price(sandbox, 0):
        async with machine.session("--max-credits", "100") as session:
            refused = error_of(await unlock(machine, session, search_id, 2))
        async with machine.session("--max-credits", "100", elicitation=user) as session:
            asked = error_of(await unlock(machine, session, search_id, 2))
    assert refused["code"] == "price_unknown"
    assert refused["quote"]["price_is_known"] is False
    assert asked["code"] == "authorization_declined"
    assert len(user.questions) == 1
    assert sandbox.credits() == credits


async def test_a_short_balance_is_refused_before_any_post(
    machine: Machine, sandbox: Sandbox
) -> None:
    search_id = sandbox.new_search(key="sk_demo_low")
    low = sandbox.credits("acct_low")
    posts = len(sandbox.spending_requests())
    async with machine.session("--max-credits", "100", key="sk_demo_low") as session:
        error = error_of(await unlock(machine, session, search_id, low + 1))
    assert error["code"] == "insufficient_credits"
    assert error["hint"] == GUIDANCE[ErrorCode.INSUFFICIENT_CREDITS].next_step  # as everywhere
    assert error["quote"]["balance"] == low
    assert error["quote"]["balance_after"] == -1
    assert len(sandbox.spending_requests()) == posts
    assert sandbox.credits("acct_low") == low
