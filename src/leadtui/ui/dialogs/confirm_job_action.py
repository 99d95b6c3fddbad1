"""ConfirmJobAction: yes/no in front of a job action that is not a spend (retry, stop)."""

from __future__ import annotations

from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.stylesheets import stylesheet


class ConfirmJobAction(ConfirmText):
    """True when the user pressed `y` or the action button; Esc/`n`/Cancel answer False.
    `ConfirmJobAction(title, text, action_label)`: the action label names the `y` key."""

    CSS_PATH = stylesheet("jobs")
