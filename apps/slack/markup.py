"""Slack's message markup, in and out.

The chat stores text as people read it: a mention is ``@handle``, a channel link
``#name``, a broadcast ``@here`` / ``@channel`` / ``@everyone``. Slack clients write
and read the markup instead: ``<@U0000012>``, ``<#C0000003|general>``,
``<!here>``, links as ``<https://x|label>``, and ``&``, ``<``, ``>`` escaped as
``&amp;``, ``&lt;``, ``&gt;``. `to_stored` reads markup (every door: a mention made
as ``<@U…>`` is the same mention as ``@handle``, for the mention rows and the
graders); `from_wire` also undoes the escaping (the Web API's input); `to_wire`
writes stored text as the Web API returns it.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.service import find_person_id, profile, profiles
from officegym.apps.slack.models import Channel
from officegym.db import get
from officegym.errors import NotFound

__all__ = ["BROADCASTS", "MENTION_RE", "from_wire", "to_stored", "to_wire"]

BROADCASTS = ("here", "channel", "everyone")
# A handle after '@' (not inside an email address), without trailing punctuation.
MENTION_RE = re.compile(r"(?<![\w@.])@([a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)")
CHANNEL_REF_RE = re.compile(r"(?<![\w&#/])#([a-z0-9][a-z0-9_-]{0,79})(?![\w-])")
MARKUP_RE = re.compile(r"<([^<>\n]{1,2000})>")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
_ENTITY_RE = re.compile("|".join(_ENTITIES))


def to_stored(s: Session, text: str) -> str:
    """`text` with Slack markup tokens (``<@U…>``, ``<#C…>``, ``<!here>``, links) written
    as the chat stores them; text without '<' is returned as it is."""
    if "<" not in text:
        return text
    return MARKUP_RE.sub(lambda m: _token(s, m.group(1)) or m.group(0), text)


def from_wire(s: Session, text: str) -> str:
    """Text as a Web API client sends it: markup read, then ``&lt;``/``&gt;``/``&amp;``
    unescaped (so an escaped ``&lt;@U1&gt;`` stays literal text)."""
    parts: list[str] = []
    last = 0
    for m in MARKUP_RE.finditer(text):
        parts.append(_unescape(text[last : m.start()]))
        token = _token(s, m.group(1))
        parts.append(token if token is not None else _unescape(m.group(0)))
        last = m.end()
    parts.append(_unescape(text[last:]))
    return "".join(parts)


def _unescape(text: str) -> str:
    return _ENTITY_RE.sub(lambda m: _ENTITIES[m.group(0)], text) if "&" in text else text


def _token(s: Session, inner: str) -> str | None:
    """The stored form of one markup token, or None if it is not one we read."""
    target, _, label = inner.partition("|")
    if target.startswith("@"):
        return _user(s, target[1:]) or None
    if target.startswith("#"):
        channel = _channel_name(s, target[1:])
        return f"#{channel}" if channel else (f"#{label}" if label else None)
    if target.startswith("!"):
        name = target[1:].split("^")[0]
        return f"@{name}" if name in BROADCASTS else (label or None)
    if target.startswith(("http://", "https://")):
        return f"{label} ({target})" if label and label != target else target
    if target.startswith("mailto:"):
        return label or target.removeprefix("mailto:")
    return None


def _user(s: Session, user_id: str) -> str:
    if not re.fullmatch(r"U\d{1,12}", user_id):
        return ""
    person_id = int(user_id[1:])
    return f"@{profile(s, person_id).handle}" if person_id in profiles(s) else ""


def _channel_name(s: Session, slack_id: str) -> str | None:
    if not re.fullmatch(r"[CG]\d{7}", slack_id):
        return None
    channel = get(s, Channel, int(slack_id[1:]))
    return channel.name if channel is not None else None


def to_wire(s: Session, text: str, channels: dict[str, str | None] | None = None) -> str:
    """Stored text as the Web API returns it: escaped, people as ``<@U…>``, broadcasts as
    ``<!here>``, known channels as ``<#C…|name>``. `channels` caches name -> Slack id
    across the messages of one answer."""
    cache = channels if channels is not None else {}
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if "@" in out:
        out = MENTION_RE.sub(lambda m: _wire_mention(s, m.group(1)) or m.group(0), out)
    if "#" in out:
        out = CHANNEL_REF_RE.sub(lambda m: _wire_channel(s, m.group(1), cache) or m.group(0), out)
    return out


def _wire_mention(s: Session, handle: str) -> str | None:
    if handle in BROADCASTS:
        return f"<!{handle}>"
    try:
        return f"<@U{find_person_id(s, handle):07d}>"
    except NotFound:
        return None


def _wire_channel(s: Session, name: str, cache: dict[str, str | None]) -> str | None:
    if name not in cache:
        found = s.execute(select(Channel.id, Channel.kind).where(Channel.name == name)).first()
        prefix = {"public": "C", "private": "G"}.get(found.kind, "C") if found else ""
        cache[name] = f"{prefix}{found.id:07d}" if found else None
    slack_id = cache[name]
    return f"<#{slack_id}|{name}>" if slack_id else None
