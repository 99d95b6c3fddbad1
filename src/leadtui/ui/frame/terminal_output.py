"""`TerminalOutput`: where the app writes escapes the screen does not draw (the bell, desktop
notifications), through Textual's public API only.

Textual keeps its running driver to itself. The app's `get_driver_class` hands Textual the
driver it would pick anyway, subclassed here so that it attaches itself while in application
mode; `Driver.write` and `Driver.flush` are public. A headless run (Pilot, tests) uses
Textual's own headless driver, which is never attached: nothing is written there.
"""

from __future__ import annotations

from typing import Any

from textual.driver import Driver


class TerminalOutput:
    """The terminal a running app draws on, to write raw escapes to (or nowhere)."""

    def __init__(self) -> None:
        self._attached: Driver | None = None

    def write(self, data: str) -> None:
        """Write `data` to the terminal now; nothing when none is attached or it is headless."""
        driver = self._attached
        if driver is None or driver.is_headless:
            return
        driver.write(data)
        driver.flush()

    def driver_class(self, picked: type[Driver]) -> type[Driver]:
        """`picked` (the driver Textual chose for this platform), attaching itself here from
        the start of application mode to its end (a suspend detaches it, a resume again)."""
        output = self

        def start_application_mode(driver: Driver) -> None:
            picked.start_application_mode(driver)
            output._attached = driver

        def stop_application_mode(driver: Driver) -> None:
            if output._attached is driver:
                output._attached = None
            picked.stop_application_mode(driver)

        members: dict[str, Any] = {
            "__module__": __name__,
            "__doc__": picked.__doc__,
            "start_application_mode": start_application_mode,
            "stop_application_mode": stop_application_mode,
        }
        subclass: type[Driver] = type(picked.__name__, (picked,), members)
        return subclass
