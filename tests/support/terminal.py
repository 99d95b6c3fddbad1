"""A terminal driver for tests: Textual's headless driver that says it is not headless and
keeps what the app writes to the terminal (chosen through TEXTUAL_DRIVER, as a user could)."""

from __future__ import annotations

from typing import ClassVar

from textual.drivers.headless_driver import HeadlessDriver

RECORDING_DRIVER = "tests.support.terminal:RecordingDriver"


class RecordingDriver(HeadlessDriver):
    written: ClassVar[list[str]] = []
    """Everything written to the terminal by any RecordingDriver (cleared by the test)."""

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.written.append(data)
