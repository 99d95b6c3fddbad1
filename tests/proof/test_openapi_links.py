"""The document's links, walked on purpose: from a new search to its unlocked leads and
archives, and from a draft to a stopped extraction. Each call's parameter comes from the
link's expression on the previous answer, and every answer is checked against the document
(status, headers, body schema) by schemathesis.
"""

from __future__ import annotations

from typing import Any

from leadtui.api.contract import API_PREFIX
from tests.conftest import FakeClock
from tests.proof.test_openapi_conformance import KEY, sandbox_document

AUTH = {"Authorization": f"Bearer {KEY}"}


class Walk:
    """Calls operations by id, taking path parameters through the document's links."""

    def __init__(self, app: Any) -> None:
        self.document = app.openapi()
        self.schema = sandbox_document(app)
        self.keys = 0

    def _responses(self, operation_id: str) -> dict[str, Any]:
        for operations in self.document["paths"].values():
            for operation in operations.values():
                if operation["operationId"] == operation_id:
                    answers: dict[str, Any] = operation["responses"]
                    return answers
        raise AssertionError(f"no operation {operation_id}")

    def call(self, operation_id: str, expected: int, **given: Any) -> Any:
        headers = {**AUTH, **given.pop("headers", {})}
        operation = self.schema.find_operation_by_id(operation_id)
        response = operation.Case(headers=headers, **given).call_and_validate()
        assert response.status_code == expected, response.text
        return response

    def follow(self, source: str, answer: Any, target: str, expected: int, **given: Any) -> Any:
        """Call `target` through the link the `source` operation's answer documents."""
        link = self._responses(source)[str(answer.status_code)]["links"][target]
        parameters = {}
        for name, expression in link["parameters"].items():
            pointer = expression.removeprefix("$response.body#/").split("/")
            value = answer.json()
            for step in pointer:
                value = value[step]
            parameters[name] = value
        return self.call(target, expected, path_parameters=parameters, **given)

    def key(self) -> dict[str, str]:
        self.keys += 1
        return {"Idempotency-Key": f"walk-{self.keys}"}


SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Lyon"}],
}


def test_links_lead_from_a_new_search_to_its_unlocked_leads(
    sandbox_app: Any, sandbox_clock: FakeClock
) -> None:
    walk = Walk(sandbox_app)
    search = walk.call("create_search", 201, body=SEARCH)
    walk.follow("create_search", search, "get_search", 200)
    unlocked = walk.follow(
        "create_search",
        search,
        "create_export",
        202,
        body={"additional_results": 5},
        headers=walk.key(),
    )
    assert unlocked.headers["retry-after"] == ["1"]
    walk.follow("create_search", search, "search_results", 200)
    moving = walk.follow("create_export", unlocked, "get_export", 200)
    assert moving.json()["data"]["status"] == "queued"
    walk.follow("create_export", unlocked, "export_results", 409)
    sandbox_clock.advance(1)
    ready = walk.follow("create_export", unlocked, "get_export", 200)
    assert ready.json()["data"]["download_path"] == (
        f"{API_PREFIX}/exports/{ready.json()['data']['exportId']}/download"
    )
    leads = walk.follow("create_export", unlocked, "export_results", 200)
    assert len(leads.json()["data"]) == 5
    assert leads.json()["next_cursor"] is None
    walk.follow("create_export", unlocked, "retry_export", 200)
    archive = walk.follow("create_export", unlocked, "download_export", 200)
    assert archive.headers["content-type"] == ["application/zip"]
    walk.follow(
        "create_export", unlocked, "custom_download", 200, body={"columns": ["company", "email"]}
    )


def test_links_lead_from_a_draft_to_a_stopped_extraction(
    sandbox_app: Any, sandbox_clock: FakeClock
) -> None:
    walk = Walk(sandbox_app)
    draft = walk.call("create_draft", 201, body={"categories": ["Florists"]})
    walk.follow(
        "create_draft",
        draft,
        "edit_draft",
        200,
        body={
            "countries": ["Portugal"],
            "localisations": ["Porto"],
            "enrichment_sources": ["website"],
            "urls": ["https://example.com/florists"],
        },
    )
    launched = walk.follow("create_draft", draft, "launch", 201, headers=walk.key())
    sandbox_clock.advance(0.2)
    walk.follow("launch", launched, "get_extraction", 200)
    paused = walk.follow(
        "launch", launched, "pause_or_resume", 200, body={"action": "pause"}, headers=walk.key()
    )
    assert paused.json()["data"]["status"] == "paused"
    walk.follow(
        "launch", launched, "pause_or_resume", 200, body={"action": "resume"}, headers=walk.key()
    )
    stopped = walk.follow("launch", launched, "stop", 200, headers=walk.key())
    assert stopped.json()["data"]["results_state"] == "archived"
    walk.follow("launch", launched, "extraction_results", 200)
