"""`create_app`: the sandbox as a FastAPI app, ready without lifespan events (ASGITransport)."""

from __future__ import annotations

import functools

from fastapi import FastAPI

from leadtui.api.contract import API_PREFIX, API_VERSION
from leadtui.sandbox import control
from leadtui.sandbox.config import SandboxConfig
from leadtui.sandbox.openapi.document import TITLE, build_openapi
from leadtui.sandbox.problems import install_handlers
from leadtui.sandbox.routes import account, discovery, exports, extractions, searches
from leadtui.sandbox.state import SandboxState
from leadtui.sandbox.traffic import TrafficLayer


def create_app(config: SandboxConfig | None = None) -> FastAPI:
    """A fresh sandbox; its state is `app.state.sandbox` (a `SandboxState`)."""
    state = SandboxState(config or SandboxConfig())
    app = FastAPI(
        title=TITLE,
        version=API_VERSION,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
        # A trailing slash is another path: 404 with the error body, not a redirect.
        redirect_slashes=False,
        # operationIds are the handlers' names (`create_search`), which OpenAPI links name.
        generate_unique_id_function=lambda route: route.name,
    )
    app.state.sandbox = state
    install_handlers(app)
    for module in (discovery, account, searches, exports, extractions, control):
        app.include_router(module.router)
    app.openapi = functools.partial(build_openapi, app)  # type: ignore[method-assign]
    app.add_middleware(TrafficLayer, state=state)
    return app
