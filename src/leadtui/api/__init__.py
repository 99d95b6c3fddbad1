"""The typed async client for the Lead Data API. Never imports Textual; usable as a library.

Import each name from its module: the client from `leadtui.api.client` (`LeadClient`), its
errors from `leadtui.api.errors`, the models from `leadtui.api.models`, keys and their masks
from `leadtui.api.keys`. The package itself imports nothing, so a module that needs only the
contract (`leadtui.api.contract`) does not load httpx or pydantic on the way to the first frame.
"""
