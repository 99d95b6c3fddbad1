"""Where each screen's stylesheet is: `ui/styles/<name>.tcss`.

The app reads `frame.tcss` (the frame and the first screen) before the first frame; every other
screen and dialog names its own in `CSS_PATH`, which Textual reads when it is first shown, so the
first frame parses only what it paints.
"""

from __future__ import annotations

from pathlib import Path

_STYLES = Path(__file__).parent.parent / "styles"


def stylesheet(name: str) -> Path:
    """The stylesheet `name` (without `.tcss`)."""
    return _STYLES / f"{name}.tcss"
