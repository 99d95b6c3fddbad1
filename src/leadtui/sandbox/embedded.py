"""A sandbox served by uvicorn on a loopback port in a background thread (`leadtui --demo`,
end-to-end tests)."""

from __future__ import annotations

import socket
import threading
import time

from leadtui.sandbox.config import SandboxConfig

_START_TIMEOUT = 10.0


class EmbeddedSandbox:
    """`with EmbeddedSandbox() as sandbox: sandbox.base_url` — stops cleanly on exit."""

    def __init__(self, config: SandboxConfig | None = None) -> None:
        import uvicorn

        from leadtui.sandbox.app import create_app

        self.app = create_app(config)
        self.app.state.sandbox.served_over_socket = True
        # proto=IPPROTO_TCP, or asyncio skips TCP_NODELAY on accepted connections (+40 ms each).
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        bound_host, bound_port = self._socket.getsockname()[:2]
        self.base_url = f"http://{bound_host}:{bound_port}"
        self._server = uvicorn.Server(
            uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False)
        )
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._socket]},
            daemon=True,
            name="leadtui-sandbox",
        )

    def start(self) -> EmbeddedSandbox:
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the embedded sandbox did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=_START_TIMEOUT)
        self._socket.close()
        self.app.state.sandbox.store.close()

    def __enter__(self) -> EmbeddedSandbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
