"""Building blocks of the Slack Web API subset (`officegym.apps.slack.api`): the
method registry, typed parameters, Slack ids and cursors, and the JSON objects
Slack returns.

Everything is read through the chat and directory services as the request's
actor (`g.actor`) on the request's session (`g.db`).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any

from flask import g

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.errors import Invalid, NotFound

__all__ = [
    "METHODS",
    "TEAM_ID",
    "TEAM_NAME",
    "WRITE_METHODS",
    "Handler",
    "Params",
    "channel_obj",
    "cursor_position",
    "find_channel",
    "find_message",
    "find_person",
    "is_user_id",
    "messages",
    "method",
    "next_cursor",
    "page",
    "seconds",
    "ts_key",
    "user_id",
    "user_obj",
]

TEAM_ID = "T0000001"
TEAM_NAME = "officegym"
USER_ID_RE = re.compile(r"^U(\d{1,12})$")
TS_RE = re.compile(r"^(\d{1,12})(?:\.(\d{1,18}))?$")  # row ids stay within SQL integers


Handler = Callable[["Params"], dict[str, Any]]
METHODS: dict[str, Handler] = {}
WRITE_METHODS: set[str] = set()  # methods that change state: POST only


def method(name: str, *, write: bool = False) -> Callable[[Handler], Handler]:
    """Register the handler of the Slack method `name` (e.g. ``chat.postMessage``);
    `write` marks a method that changes state (accepted only by POST)."""

    def register(fn: Handler) -> Handler:
        METHODS[name] = fn
        if write:
            WRITE_METHODS.add(name)
        return fn

    return register


def user_id(person_id: int) -> str:
    """A person's Slack user id: ``U`` + the zero-padded person id."""
    return f"U{person_id:07d}"


class Params:
    """Typed access to a request's parameters, failing with Slack's error codes."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def text(self, key: str, *, missing: str | None = None) -> str:
        """A string parameter; '' if absent, or an error with code `missing`."""
        value = self.data.get(key)
        value = "" if value is None else str(value).strip()
        if not value and missing:
            raise Invalid(f"'{key}' is required", code=missing)
        return value

    def number(self, key: str, default: int, lo: int, hi: int) -> int:
        raw = self.data.get(key)
        if raw in (None, ""):
            return default
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise Invalid(f"'{key}' must be an integer", code=f"invalid_{key}") from None
        return default if value == 0 else max(lo, min(value, hi))

    def flag(self, key: str, default: bool = False) -> bool:
        raw = self.data.get(key)
        if raw in (None, ""):
            return default
        return raw is True or str(raw).lower() in ("1", "true", "yes")


# ---------------------------------------------------------------- ids and cursors


def find_channel(p: Params, key: str = "channel") -> Channel:
    """The channel named by parameter `key` (a Slack id or a name) that the actor can see."""
    ref = p.text(key, missing="channel_not_found")
    return chat.get_channel(g.db, g.actor, ref)


def is_user_id(ref: str) -> bool:
    """Whether `ref` is a Slack user id (``U0000012``) rather than a channel."""
    return USER_ID_RE.match(ref.strip()) is not None


def find_person(ref: str) -> Person:
    """A person by Slack user id (``U0000012``)."""
    match = USER_ID_RE.match(ref.strip())
    if match is None:
        raise NotFound(f"no user {ref!r}", code="user_not_found")
    return org.get_person(g.db, int(match.group(1)))


def ts_key(ts: str, code: str = "message_not_found") -> tuple[int, int]:
    """A ts as (seconds, row id); a plain time has row id 0."""
    match = TS_RE.match(ts.strip())
    if match is None:
        raise NotFound(f"no message with ts {ts!r}", code=code)
    return int(match.group(1)), int(match.group(2) or 0)


def find_message(
    p: Params,
    channel: Channel,
    key: str = "ts",
    *,
    code: str = "message_not_found",
    include_deleted: bool = False,
) -> Message:
    """The live message of `channel` with the ts in parameter `key` (or a deleted one, with
    `include_deleted`); NotFound with `code` if there is none."""
    ts = p.text(key, missing=code)
    try:
        msg = chat.get_message(g.db, g.actor, ts_key(ts, code)[1], include_deleted=include_deleted)
    except NotFound:
        msg = None
    if msg is None or msg.channel_id != channel.id or msg.ts != ts:
        raise NotFound(f"no message {ts} in this channel", code=code)
    return msg


def cursor_position(p: Params) -> int:
    """The position a cursor encodes (0 without one)."""
    raw = p.text("cursor")
    if not raw:
        return 0
    try:
        kind, _, value = base64.urlsafe_b64decode(raw.encode()).decode().partition(":")
        if kind == "next" and value.isdigit():
            return int(value)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise Invalid("cursor is not one this server gave out", code="invalid_cursor")


def next_cursor(position: int | None) -> dict[str, str]:
    """Slack's ``response_metadata``: an opaque cursor to `position`, or '' at the end."""
    if position is None:
        return {"next_cursor": ""}
    return {"next_cursor": base64.urlsafe_b64encode(f"next:{position}".encode()).decode()}


def page(items: list[Any], p: Params, default: int, most: int) -> tuple[list[Any], dict]:
    """One page of `items` by offset cursor, and the metadata pointing at the next one."""
    start, size = cursor_position(p), p.number("limit", default, 1, most)
    end = start + size
    return items[start:end], next_cursor(end if end < len(items) else None)


# ---------------------------------------------------------------- objects


def channel_obj(c: Channel, mine: set[int] | None = None) -> dict[str, Any]:
    """A conversation object as Slack's conversations.* methods return it."""
    s, me = g.db, g.actor
    member = c.id in mine if mine is not None else chat.is_member(s, me, c)
    obj: dict[str, Any] = {
        "id": c.slack_id,
        "created": seconds(c.created_at),
        "creator": user_id(c.created_by_id),
        "is_archived": c.is_archived,
        "is_channel": c.kind == "public",
        "is_group": c.kind == "private",
        "is_im": c.kind == "dm",
        "is_mpim": c.kind == "mpdm",
        "is_private": c.kind != "public",
        "is_member": member,
    }
    if c.kind == "dm":
        others = [x.id for x in chat.members(s, me, c) if x.id != me.id]
        obj["user"] = user_id(others[0] if others else me.id)
        return obj
    obj["name"] = c.name or "mpdm-" + "--".join(x.handle for x in chat.members(s, me, c))
    obj["is_general"] = c.name == chat.DEFAULT_CHANNEL
    obj["topic"] = {"value": c.topic, "creator": "", "last_set": 0}
    obj["purpose"] = {"value": c.purpose, "creator": "", "last_set": 0}
    return obj


def messages(msgs: list[Message]) -> list[dict[str, Any]]:
    """Message objects with thread, reaction and edit details, as Slack returns them."""
    ids = [m.id for m in msgs]
    counts = chat.reply_counts(g.db, ids)
    reactions = chat.reactions_for(g.db, ids)
    return [_message_obj(m, counts.get(m.id, 0), reactions.get(m.id, {})) for m in msgs]


def _message_obj(m: Message, replies: int, reactions: dict[str, list[str]]) -> dict[str, Any]:
    if m.is_deleted:
        return _tombstone(m, replies)
    obj: dict[str, Any] = {
        "type": "message",
        "user": user_id(m.user_id),
        "text": m.text,
        "ts": m.ts,
        "team": TEAM_ID,
    }
    if m.thread_parent_id is not None:  # the parent may be deleted: its ts still names the thread
        parent = chat.get_message(g.db, g.actor, m.thread_parent_id, include_deleted=True)
        obj.update(thread_ts=parent.ts, parent_user_id=user_id(parent.user_id))
    elif replies:
        obj.update(thread_ts=m.ts, reply_count=replies)
    if reactions:
        obj["reactions"] = [
            {"name": e, "users": [_uid_of(h) for h in hs], "count": len(hs)}
            for e, hs in reactions.items()
        ]
    if m.edited_at is not None:
        obj["edited"] = {"user": user_id(m.user_id), "ts": f"{seconds(m.edited_at)}.000000"}
    return obj


def _tombstone(m: Message, replies: int) -> dict[str, Any]:
    """What Slack shows for a deleted thread parent whose replies live on."""
    return {
        "type": "message",
        "subtype": "tombstone",
        "user": "USLACKBOT",
        "text": chat.DELETED_TEXT,
        "hidden": True,
        "ts": m.ts,
        "thread_ts": m.ts,
        "reply_count": replies,
        "team": TEAM_ID,
    }


def _uid_of(handle: str) -> str:
    return user_id(org.find_person(g.db, handle).id)


def user_obj(p: Person) -> dict[str, Any]:
    status = chat.get_status(g.db, p)
    return {
        "id": user_id(p.id),
        "team_id": TEAM_ID,
        "name": p.handle,
        "real_name": p.name,
        "deleted": False,
        "is_bot": False,
        "is_admin": False,
        "tz": p.timezone,
        "profile": {
            "real_name": p.name,
            "display_name": p.handle,
            "email": p.email,
            "title": p.title,
            "team": TEAM_ID,
            "status_text": status.text if status else "",
            "status_emoji": f":{status.emoji}:" if status and status.emoji else "",
        },
    }


def seconds(when: dt.datetime) -> int:
    """Unix seconds of a naive UTC time (how the models store times)."""
    return int(when.replace(tzinfo=dt.UTC).timestamp())
