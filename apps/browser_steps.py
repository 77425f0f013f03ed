"""Writing UI steps for browser reference solutions, without importing the gym.

Each app's ``browser`` module turns its tool calls into actions of the browser
action language (``click('composer-send')``, ``fill('composer-text', 'Hi')``,
``goto('/slack/people')`` ...), which `officegym.gym.browser.actions` parses.
These helpers write those action strings; arguments are Python literals, so any
text (quotes, newlines, Unicode) round-trips exactly.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

__all__ = ["act", "goto", "path_part"]


def act(name: str, *args: str | list[str]) -> str:
    """The action calling `name` with literal arguments, e.g. ``fill('edit-text', "it's")``."""
    return f"{name}({', '.join(repr(a) for a in args)})"


def goto(path: str, **query: object) -> str:
    """``goto(path)``, with the query parameters that are not None."""
    params = {k: str(v) for k, v in query.items() if v is not None}
    return act("goto", f"{path}?{urlencode(params)}" if params else path)


def path_part(value: object) -> str:
    """`value` quoted for use as one segment of a URL path."""
    return quote(str(value), safe="")
