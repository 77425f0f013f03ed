"""Message text as Slack draws it: ``:short_name:`` emoji as the emoji, and mentions as
highlighted links to the person.

Stored text (see `markup`) holds a mention as ``@handle`` and a broadcast as ``@here``;
emoji short names are Slack's (GitHub's aliases, e.g. ``:tada:``, ``:+1:``), read by the
`emoji` package; an unknown short name stays as written. Everything else is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

import emoji
from markupsafe import Markup, escape

from officegym.apps.slack.markup import BROADCASTS, MENTION_RE

__all__ = ["emojize", "rich_text"]


def emojize(text: str) -> Markup:
    """`text` escaped, with known ``:short_name:`` emoji drawn (for places that are already
    a link, such as search results, where a mention cannot be one)."""
    escaped = str(escape(text))
    if ":" not in escaped:
        return Markup(escaped)
    return Markup(emoji.emojize(escaped, language="alias"))


def rich_text(
    text: str, *, people: Container[str], me: str, profile_url: Callable[[str], str]
) -> Markup:
    """`text` escaped, emoji drawn, and each ``@handle`` of someone in `people` a link to
    their profile (class ``mention``; ``mention-me`` too when it names `me`, as Slack
    highlights your own mentions); ``@here``/``@channel``/``@everyone`` highlighted."""
    drawn = str(emojize(text))
    if "@" not in drawn:
        return Markup(drawn)

    def link(found: re.Match[str]) -> str:
        handle = found.group(1)
        if handle in BROADCASTS:
            return f'<span class="mention mention-broadcast">@{handle}</span>'
        if handle not in people:
            return found.group(0)
        mine = " mention-me" if handle == me else ""
        url = escape(profile_url(handle))
        return f'<a class="mention{mine}" href="{url}">@{handle}</a>'

    return Markup(MENTION_RE.sub(link, drawn))
