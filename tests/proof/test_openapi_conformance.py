"""schemathesis against the sandbox's own /openapi.json: no 5xx, and every response matches
the status codes, content types, headers and body schemas the document declares (bodies are
exact: no member missing, none added); invalid input is refused; a 405 says what is allowed.
Then stateful: the document's links chain calls (create a search → get it → unlock → read
the export → its results; draft → launch → pause, stop), each answer checked the same way.

One default check is left out: `positive_data_acceptance` expects every schema-valid request
to pass, but some rules cannot be written in a schema and the spec answers them with 400
(an opaque `cursor` this server never issued, a column that is not authorized, a draft
launched before it is complete). And no unknown query parameters are made up: like most
HTTP APIs the sandbox ignores them, and the spec does not say otherwise.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig

KEY = "sk_demo_full"
NOT_EVERY_RULE_IS_IN_THE_SCHEMA = ["positive_data_acceptance"]
CREATING = [("create_search", 201), ("create_draft", 201), ("create_extraction", 201)]
NEEDING_AN_ID = {
    "get_search",
    "search_results",
    "get_export",
    "get_extraction",
    "edit_draft",
    "stop",
}
# Hundreds of generated calls: minutes, not seconds, when both cores are busy with other work.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


class DemoKeyAuth:
    def get(self, case: Any, context: Any) -> str:
        return KEY

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


class SteppingClock:
    """Each read is 50 ms later: jobs move through their states at the pace of the calls,
    the same way on every run, whatever the machine's speed."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 1_767_225_600.0 + self.reads * 0.05


def sandbox_document(app: Any) -> Any:
    """The sandbox's own document, loaded by schemathesis, calling `app` in process."""
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    schema.config.generation.update(allow_extra_parameters=False)
    schema.config.checks.update(excluded_check_names=NOT_EVERY_RULE_IS_IN_THE_SCHEMA)
    # The key as an auth provider, so schemathesis knows which requests carry it.
    schema.auth()(DemoKeyAuth)
    return schema


@pytest.fixture
def sandbox_schema() -> Any:
    return sandbox_document(create_app(SandboxConfig(job_seconds=0.3, clock=SteppingClock())))


schema = schemathesis.pytest.from_fixture("sandbox_schema")


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case: Any) -> None:
    case.call_and_validate()


def test_linked_workflows_conform() -> None:
    clock = SteppingClock()
    app = create_app(SandboxConfig(job_seconds=1.0, clock=clock))
    answered: Counter[tuple[str, int]] = Counter()

    class Workflows(sandbox_document(app).as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            # Each scenario starts from the same state, so runs repeat exactly.
            app.state.sandbox.reset()
            clock.reads = 0

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            answered[case.operation.definition.raw["operationId"], response.status_code] += 1

    Workflows.run(
        settings=settings(
            max_examples=100,
            stateful_step_count=10,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
    # The walk chained calls: ids from one answer fed later calls that found them. Which
    # links a run reaches depends on what it generates; test_openapi_links.py follows each.
    created = sum(answered[step] for step in CREATING)
    found = sum(
        n
        for (operation, status), n in answered.items()
        if operation in NEEDING_AN_ID and 200 <= status < 300
    )
    assert created > 0, answered
    assert found > 0, answered
