"""schemathesis against the sandbox's own /openapi.json: no 5xx, and every response matches
the status codes, content types, headers and schemas the document declares; invalid input is
refused; a 405 says what is allowed.

One default check is left out: `positive_data_acceptance` expects every schema-valid request
to pass, but some rules cannot be written in a schema and the spec answers them with 400
(an opaque `cursor` this server never issued, a column that is not authorized). And no
unknown query parameters are made up: like most HTTP APIs the sandbox ignores them, and the
spec does not say otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig

KEY = "sk_demo_full"


@pytest.fixture
def sandbox_schema() -> Any:
    app = create_app(SandboxConfig(job_seconds=0.3))
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    schema.config.generation.update(allow_extra_parameters=False)
    # The key as an auth provider, so schemathesis knows which requests carry it.
    schema.auth()(DemoKeyAuth)
    return schema


class DemoKeyAuth:
    def get(self, case: Any, context: Any) -> str:
        return KEY

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


schema = schemathesis.pytest.from_fixture("sandbox_schema")


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_conforms(case: Any) -> None:
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
