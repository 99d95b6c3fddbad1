"""Every link of the sandbox's /openapi.json, followed by hand: the value a link names in one
answer is what the linked operation takes, and the thing it names is found there.

The stateful schemathesis run (test_openapi_conformance.py) walks these links at random and
checks each answer against the document; whether a given run reaches every link depends on
what it happens to generate. Here each is followed once, the same way every run.
"""

from __future__ import annotations

from itertools import count
from typing import Any

import httpx

from tests.support.bodies import EXTRACTION, SEARCH

API = "/api/v1"
# A valid body for each linked operation that takes one.
BODIES: dict[str, Any] = {
    "create_export": {"additional_results": 1},
    "custom_download": {"columns": ["company"], "format": "json"},
    "edit_draft": {"countries": ["ES"]},
    "pause_or_resume": {"action": "pause"},
    "create_draft": EXTRACTION,
    "create_extraction": EXTRACTION,
}
keys = count(1)


def headers() -> dict[str, str]:
    return {"Authorization": "Bearer sk_demo_full", "Idempotency-Key": f"link-{next(keys)}"}


def pointer(document: Any, expression: str) -> Any:
    """The value `$response.body#/data/searchId` names in `document`."""
    prefix = "$response.body#"
    assert expression.startswith(prefix), expression
    value = document
    for step in expression[len(prefix) :].strip("/").split("/"):
        value = value[step]
    return value


async def test_every_link_feeds_an_operation_that_finds_what_it_names(
    sandbox_http: httpx.AsyncClient,
) -> None:
    document = (await sandbox_http.get(f"{API}/openapi.json")).json()
    operations = {
        operation["operationId"]: (method, path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }

    async def call(operation_id: str, values: dict[str, str]) -> httpx.Response:
        method, path = operations[operation_id]
        return await sandbox_http.request(
            method.upper(),
            path.format(**values),
            headers=headers(),
            json=BODIES.get(operation_id) if method != "get" else None,
        )

    search = await sandbox_http.post(f"{API}/searches", headers=headers(), json=SEARCH)
    search_id = search.json()["data"]["searchId"]
    queue: list[tuple[str, httpx.Response]] = [
        ("create_search", search),
        ("create_export", await call("create_export", {"searchId": search_id})),
        ("create_draft", await call("create_draft", {})),
        ("create_extraction", await call("create_extraction", {})),
    ]
    followed: set[tuple[str, str]] = set()
    while queue:
        source, answer = queue.pop(0)
        assert answer.status_code in (201, 202), (source, answer.text)
        method, path = operations[source]
        links = document["paths"][path][method]["responses"][str(answer.status_code)]["links"]
        for name, link in links.items():
            target = link["operationId"]
            values = {p: pointer(answer.json(), e) for p, e in link["parameters"].items()}
            reply = await call(target, values)
            # Found: no 404, no id refused; the operation may still decline what it is asked
            # (a retry of an export that did not fail, results not ready yet: 409).
            assert reply.status_code not in (400, 404), (source, name, reply.text)
            assert reply.status_code < 500, (source, name, reply.text)
            if reply.status_code < 300:
                followed.add((source, name))
            if target == "launch":
                queue.append((target, reply))  # a launched extraction has links of its own
            if operations[target][0] == "get" and reply.status_code == 200:
                record = reply.json()["data"]
                named = {
                    p: v for p, v in values.items() if isinstance(record, dict) and p in record
                }
                assert named == {p: record[p] for p in named}, (source, name)
    for link in [
        ("create_search", "get_search"),
        ("create_search", "search_results"),
        ("create_search", "create_export"),
        ("create_export", "get_export"),
        ("create_draft", "get_extraction"),
        ("create_draft", "edit_draft"),
        ("create_draft", "launch"),
        ("create_extraction", "get_extraction"),
        ("create_extraction", "stop"),
        ("launch", "pause_or_resume"),
    ]:
        assert link in followed, (link, sorted(followed))
