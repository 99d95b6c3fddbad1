"""leadtui: a keyboard-driven terminal app for the Lead Data API."""

# The one place the version lives: pyproject reads it (tool.setuptools.dynamic). A literal,
# not importlib.metadata.version(), which costs ~40 ms of start-up for one string.
__version__ = "0.1.0"
