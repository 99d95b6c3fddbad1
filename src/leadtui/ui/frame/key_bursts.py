"""Keys sent in bursts (a paste, tmux send-keys, a slow SSH link) land where they are typed.

Works around two behaviours of Textual's input handling: `KeysInBursts`, the app's base,
hands each key down and waits until it is handled before the next.
"""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any, Final

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

# Textual hands each key to the focused widget and goes on to the next without waiting, so in
# a burst (a paste, tmux send-keys, a slow SSH link) the keys after a Tab or an Esc reached
# the widget that had focus before it ("bakeryFR"). Each key is now handled before the next;
# the bound keeps a handler that waits on the app itself from stalling it.
KEY_HANDLING_BOUND = 0.25


async def until_handled(target: Screen[Any] | Widget) -> bool:
    """Until `target`, then each node a key bubbles to, has handled what it was sent. False when
    a node took longer than the bound (the key then goes on as Textual sends it)."""
    node: DOMNode | None = target
    while node is not None and not isinstance(node, App):
        done = asyncio.Event()
        if not node.call_later(done.set):
            return False
        try:
            await asyncio.wait_for(done.wait(), KEY_HANDLING_BOUND)
        except TimeoutError:
            return False
        node = node.parent
    return True


# Textual reads Esc and a digit arriving together as the character macOS types with
# option+digit (Esc 2 → "™"). Outside a text field it is the Esc, then the number (a screen).
ESC_DIGITS: Final = {
    "º": "0", "¡": "1", "™": "2", "£": "3", "¢": "4", "∞": "5", "§": "6", "¶": "7", "•": "8",
    "ª": "9",
}  # fmt: skip


def split_meta_key(event: events.Key, *, in_text_field: bool = False) -> list[events.Key]:
    """Esc and a letter arriving together read as alt+letter in Textual's parser (the meta
    prefix is an Esc); leadtui binds no alt keys, so it is the Esc the user typed, then the
    letter ("act10+act11" lost its Esc). Esc and a digit likewise, outside a text field,
    where "£" may be typed."""
    character = event.character
    escape = events.Key("escape", "\x1b")
    digit = None if in_text_field else ESC_DIGITS.get(character or "")
    if digit is not None:
        return [escape, events.Key(digit, digit)]
    if not event.key.startswith("alt+") or not character or not character.isprintable():
        return [event]
    return [escape, events.Key(character_key(character), character)]


def character_key(character: str) -> str:
    """The key Textual names a typed character by ("-" → "minus", "a" → "a"), as its parser
    does (that function is private to Textual)."""
    if character.isalnum():
        return character
    try:
        key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        key = ASCII_KEY_NAMES.get(character, character)
    return KEY_NAME_REPLACEMENTS.get(key, key)


def is_text_field(widget: Widget | None) -> bool:
    # By name: importing the widgets to ask would cost start-up time.
    return widget is not None and any(
        cls.__name__ in ("Input", "TextArea") for cls in type(widget).__mro__
    )


class KeysInBursts(App[int]):
    """An app that handles each key of a burst before the next, and reads Esc + a letter or a
    digit arriving together as the two keys typed (`LeadApp` is one)."""

    # The key `on_event` is handing down until it is handled, and whether it came back
    # unhandled (see `post_message`). Class defaults: Textual may post before __init__ ends.
    _key_in_hand: events.Key | None = None
    _key_came_back: bool = False

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        for key in split_meta_key(event, in_text_field=is_text_field(self.focused)):
            target = self.focused or self.screen
            self._key_in_hand, self._key_came_back = key, False
            try:
                await super().on_event(key)
                handled = key.is_forwarded and await until_handled(target)
            finally:
                came_back, self._key_in_hand = self._key_came_back, None
            if came_back and handled:
                # Unhandled below, the key came back to the app: its bindings (Tab's
                # focus_next, the screens' keys) run now, before the rest of the burst.
                await super().on_event(key)
            elif came_back:
                super().post_message(key)  # too slow to wait for: queued, as Textual would

    def post_message(self, message: Message) -> bool:
        # A key of a burst that nothing below handled bubbles back here; `on_event`, which
        # is waiting for it, handles it at once rather than behind the rest of the burst.
        if message is self._key_in_hand:
            self._key_came_back = True
            return True
        return super().post_message(message)
