"""The sandbox's /openapi.json is good enough to build on: a client generated from it with
openapi-python-client calls every operation and parses every answer (successes and the
errors each one can meet), and openapi-core validates each of those answers, headers and
body, against the same document.

The client is generated once per session (a few seconds), into a temporary folder.
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
import typing
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from starlette.testclient import TestClient
from werkzeug.datastructures import Headers, ImmutableMultiDict

from leadtui.api.contract import LEAD_COLUMNS
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from tests.cli.test_spending import EXTRACTION
from tests.conftest import FakeClock

PACKAGE = "lead_data_client"
# Generating the client is a separate program that runs for seconds, much longer on a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]
BASE = "http://127.0.0.1"
SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
# What the generator is told: the package's name, and that no formatter is run on what it
# writes. Nothing about the answers: the document says how to read each.
GENERATOR_CONFIG = {"package_name_override": PACKAGE, "post_hooks": []}


def served_document() -> dict[str, Any]:
    with TestClient(create_app(SandboxConfig())) as http:
        answer = http.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    doc: dict[str, Any] = answer.json()
    return doc


@pytest.fixture(scope="session")
def document() -> dict[str, Any]:
    return served_document()


@pytest.fixture(scope="session")
def generated(document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The generated package's name, importable while the session lasts."""
    folder = tmp_path_factory.mktemp("generated")
    (folder / "openapi.json").write_text(json.dumps(document))
    (folder / "config.json").write_text(json.dumps(GENERATOR_CONFIG))
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(folder / "openapi.json"),
            "--config",
            str(folder / "config.json"),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Every operation and every answer made it into the client: nothing was skipped.
    assert "WARNING" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield PACKAGE
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


# --- openapi-core's view of an httpx exchange -------------------------------------------


def validator(document: dict[str, Any]) -> OpenAPI:
    """openapi-core over the document, as it comes: no reader of ours for any media type."""
    return OpenAPI.from_dict(document)


class CoreRequest:
    def __init__(self, request: httpx.Request) -> None:
        self.request = request
        query = parse_qs(request.url.query.decode(), keep_blank_values=True)
        self.parameters = RequestParameters(
            query=ImmutableMultiDict([(k, v) for k, vs in query.items() for v in vs]),
            header=Headers(dict(request.headers)),
            cookie=ImmutableMultiDict(),
        )

    host_url = BASE

    @property
    def path(self) -> str:
        return self.request.url.path

    @property
    def method(self) -> str:
        return self.request.method.lower()

    @property
    def body(self) -> bytes | None:
        return self.request.content or None

    @property
    def content_type(self) -> str:
        return str(self.request.headers.get("Content-Type", ""))


class CoreResponse:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    @property
    def status_code(self) -> int:
        return self.response.status_code

    @property
    def content_type(self) -> str:
        return str(self.response.headers.get("Content-Type", ""))

    @property
    def headers(self) -> Headers:
        return Headers(dict(self.response.headers))

    @property
    def data(self) -> bytes:
        return self.response.content


@dataclass
class Recorder(httpx.AsyncBaseTransport):
    """Every exchange the generated client makes, its body read."""

    inner: httpx.AsyncBaseTransport
    exchanges: list[tuple[httpx.Request, httpx.Response]] = field(default_factory=list)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        kept = httpx.Response(response.status_code, headers=response.headers, content=body)
        self.exchanges.append((request, kept))
        return httpx.Response(response.status_code, headers=response.headers, content=body)


# --- Calling every operation through the generated client --------------------------------


@dataclass
class Calls:
    package: str
    recorder: Recorder
    clock: FakeClock
    seen: set[tuple[str, int]] = field(default_factory=set)

    def client(self, key: str | None = "sk_demo_full") -> Any:
        module = importlib.import_module(f"{self.package}.client")
        args = {"transport": self.recorder}
        if key is None:
            return module.Client(base_url=BASE, httpx_args=args, raise_on_unexpected_status=True)
        return module.AuthenticatedClient(
            base_url=BASE, token=key, httpx_args=args, raise_on_unexpected_status=True
        )

    async def __call__(
        self, operation: str, status: int, *, key: str | None = "sk_demo_full", **kwargs: Any
    ) -> Any:
        """Call `operation` (tag.operationId), expecting `status`; the parsed answer."""
        tag, name = operation.split(".")
        module: ModuleType = importlib.import_module(f"{self.package}.api.{tag}.{name}")
        if "body" in kwargs:
            body_type = typing.get_type_hints(module.asyncio_detailed)["body"]
            kwargs["body"] = body_type.from_dict(kwargs["body"])
        answer = await module.asyncio_detailed(client=self.client(key), **kwargs)
        assert answer.status_code == status, (operation, answer.status_code, answer.content)
        assert answer.parsed is not None, (operation, status)
        self.seen.add((name, status))
        return answer.parsed

    async def ready_export(self, results: int = 3) -> str:
        search = await self("searches.create_search", 201, body=SEARCH)
        unlocked = await self(
            "exports.create_export",
            202,
            search_id=search.data.search_id,
            body={"additional_results": results},
            idempotency_key=f"unlock-{len(self.seen)}-{results}",
        )
        self.clock.advance(5)
        return str(unlocked.data.export_id)


async def walk_every_operation(call: Calls) -> None:
    await call("discovery.discovery", 200, key=None)
    await call("discovery.openapi", 200, key=None)
    await call("account.me", 200)
    await call("account.me", 401, key="sk_demo_revoked")
    await call("account.usage", 200)
    await call("account.usage", 403, key="sk_demo_inactive")

    search = (await call("searches.create_search", 201, body=SEARCH)).data
    await call("searches.create_search", 403, key="sk_demo_readonly", body=SEARCH)
    await call("searches.list_searches", 200, limit=1)
    await call("searches.list_searches", 400, cursor="")
    await call("searches.list_searches", 400, cursor="not-ours")
    await call("searches.get_search", 200, search_id=search.search_id)
    await call("searches.get_search", 404, search_id="srch_nope")
    await call("searches.search_results", 200, search_id=search.search_id)
    await call("searches.search_results", 400, search_id=search.search_id, cursor="x.y")

    pending = (
        await call(
            "exports.create_export",
            202,
            search_id=search.search_id,
            body={"additional_results": 4},
            idempotency_key="unlock-first",
        )
    ).data.export_id
    await call(
        "exports.create_export",
        409,
        key="sk_demo_low",
        search_id=(
            await call("searches.create_search", 201, key="sk_demo_low", body=SEARCH)
        ).data.search_id,
        body={"additional_results": 500},
        idempotency_key="unlock-too-much",
    )
    await call("exports.create_export", 404, search_id="srch_nope", body={"additional_results": 1},
               idempotency_key="unlock-nothing")  # fmt: skip
    await call("exports.export_results", 409, export_id=pending)
    await call("exports.download_export", 409, export_id=pending)
    await call("exports.custom_download", 409, export_id=pending, body={"columns": ["company"]})
    ready = await call.ready_export()
    await call("exports.list_exports", 200)
    await call("exports.list_exports", 400, cursor="")
    await call("exports.get_export", 200, export_id=ready)
    await call("exports.get_export", 404, export_id="exp_nope")
    await call("exports.export_results", 200, export_id=ready)
    await call("exports.export_results", 400, export_id=ready, cursor="")
    await call("exports.retry_export", 200, export_id=ready)
    zipped = await call("exports.download_export", 200, export_id=ready)
    assert zipfile.is_zipfile(io.BytesIO(zipped)), zipped[:16]
    custom = {"columns": list(LEAD_COLUMNS), "format": "json"}
    custom_zip = await call("exports.custom_download", 200, export_id=ready, body=custom)
    assert zipfile.is_zipfile(io.BytesIO(custom_zip)), custom_zip[:16]
    await call("exports.custom_download", 404, export_id="exp_nope", body=custom)

    draft = (await call("extractions.create_draft", 201, body={"categories": ["bakery"]})).data
    await call("extractions.create_draft", 400, body={"categories": ["x" * 10]} | {"urls": [""]})
    changed = {"countries": ["BE"]}
    await call("extractions.edit_draft", 200, extraction_id=draft.extraction_id, body=changed)
    await call("extractions.edit_draft", 404, extraction_id="ext_nope", body=changed)
    await call(
        "extractions.launch", 400, extraction_id=draft.extraction_id, idempotency_key="launch-1"
    )
    running = (
        await call("extractions.create_extraction", 201, body=EXTRACTION, idempotency_key="ext-1")
    ).data.extraction_id
    await call("extractions.edit_draft", 409, extraction_id=running, body=changed)
    await call("extractions.list_extractions", 200)
    await call("extractions.list_extractions", 400, cursor="")
    await call("extractions.get_extraction", 200, extraction_id=running)
    await call("extractions.get_extraction", 404, extraction_id="ext_nope")
    pause = {"action": "pause"}
    await call(
        "extractions.pause_or_resume",
        200,
        extraction_id=running,
        body=pause,
        idempotency_key="pause-1",
    )
    await call("extractions.extraction_results", 200, extraction_id=running)
    await call("extractions.extraction_results", 400, extraction_id=running, cursor="")
    await call("extractions.stop", 200, extraction_id=running, idempotency_key="stop-1")
    await call(
        "extractions.pause_or_resume",
        409,
        extraction_id=running,
        body=pause,
        idempotency_key="pause-2",
    )
    await call("extractions.stop", 404, extraction_id="ext_nope", idempotency_key="stop-2")
    await call.ready_export()  # the clock moves: every job settles
    filled = {key: value for key, value in EXTRACTION.items() if key != "categories"}
    await call("extractions.edit_draft", 200, extraction_id=draft.extraction_id, body=filled)
    await call(
        "extractions.launch", 201, extraction_id=draft.extraction_id, idempotency_key="launch-2"
    )


def operation_ids(document: dict[str, Any]) -> set[str]:
    return {op["operationId"] for ops in document["paths"].values() for op in ops.values()}


async def test_a_generated_client_reads_every_answer_and_each_is_valid(
    generated: str, document: dict[str, Any]
) -> None:
    clock = FakeClock()
    app = create_app(SandboxConfig(job_seconds=0.3, clock=clock))
    recorder = Recorder(httpx.ASGITransport(app=app))
    call = Calls(generated, recorder, clock)
    await walk_every_operation(call)

    assert {name for name, _ in call.seen} == operation_ids(document)
    spec = validator(document)
    for request, response in recorder.exchanges:
        spec.validate_response(CoreRequest(request), CoreResponse(response))


async def test_the_service_s_failures_are_read_and_valid_too(
    generated: str, document: dict[str, Any]
) -> None:
    app = create_app(SandboxConfig(fault_rate=1.0, fault_seed=7))
    recorder = Recorder(httpx.ASGITransport(app=app))
    call = Calls(generated, recorder, FakeClock())
    statuses: set[int] = set()
    for _ in range(40):
        try:
            answer = await importlib.import_module(f"{generated}.api.account.me").asyncio_detailed(
                client=call.client()
            )
        except httpx.TransportError:  # a cut connection: no answer to read
            continue
        assert answer.parsed is not None
        statuses.add(answer.status_code)
    assert statuses == {502, 503}
    spec = validator(document)
    for request, response in recorder.exchanges:
        spec.validate_response(CoreRequest(request), CoreResponse(response))
