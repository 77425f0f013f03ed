"""The conversations.* methods of the Slack Web API subset (`officegym.apps.slack.api`
dispatches them; they register in the same method table).

conversations.history reads ``latest`` / ``oldest`` as Slack does: Unix times in
decimal seconds (``1772381616``, ``1772381616.5``), or the ts of a message of the
channel, in which case ``inclusive`` decides whether that message is included.
Both bounds go into the query, so cursors and ``has_more`` stay exact.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from flask import g

from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import (
    Params,
    cursor_position,
    find_channel,
    find_message,
    find_person,
    is_user_id,
    method,
    next_cursor,
    page,
    user_id,
)
from officegym.apps.slack.api_views import channel_obj, messages
from officegym.apps.slack.models import Channel
from officegym.db import ID_MAX
from officegym.errors import Conflict, Invalid, NotFound

__all__ = ["CONVERSATION_TYPES", "wanted_types"]

CONVERSATION_TYPES = {"public": "public_channel", "private": "private_channel"}
CONVERSATION_TYPES |= {"dm": "im", "mpdm": "mpim"}
UNIX_TIME_RE = re.compile(r"^\d+(?:\.\d+)?$")
EPOCH = dt.datetime(1970, 1, 1)
LAST_SECOND = Decimal(253402300799)  # 9999-12-31 23:59:59, the last time a datetime holds
BEFORE_ALL, AFTER_ALL = 0, ID_MAX + 1  # ids below / above every key (never bound as is)
NOT_FOR_CHANNELS = "method_not_supported_for_channel_type"


def wanted_types(p: Params) -> set[str]:
    """The conversation types a `types` parameter asks for (default: public channels)."""
    wanted = {t.strip() for t in (p.text("types") or "public_channel").split(",") if t.strip()}
    if not wanted <= set(CONVERSATION_TYPES.values()):
        raise Invalid(f"unknown conversation types {sorted(wanted)}", code="invalid_types")
    return wanted


@method("conversations.list")
def conversations_list(p: Params) -> dict[str, Any]:
    wanted = wanted_types(p)
    s, me = g.db, g.actor
    found = chat.list_channels(s, me, include_archived=not p.flag("exclude_archived"))
    found += chat.list_conversations_of(s, me)
    found = [c for c in found if CONVERSATION_TYPES[c.kind] in wanted]
    chunk, meta = page(found, p, 100, 1000)
    mine = {c.id for c in chat.list_channels(s, me, member_only=True, include_archived=True)}
    mine |= {c.id for c in chat.list_conversations_of(s, me)}
    return {"channels": [channel_obj(c, mine) for c in chunk], "response_metadata": meta}


@method("conversations.info")
def conversations_info(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    obj = channel_obj(c)
    if p.flag("include_num_members"):
        obj["num_members"] = len(chat.members(g.db, g.actor, c))
    return {"channel": obj}


@method("conversations.members")
def conversations_members(p: Params) -> dict[str, Any]:
    people = chat.members(g.db, g.actor, find_channel(p))
    chunk, meta = page([user_id(x.id) for x in people], p, 100, 1000)
    return {"members": chunk, "response_metadata": meta}


@method("conversations.history")
def conversations_history(p: Params) -> dict[str, Any]:
    """Top-level messages, newest first, between `oldest` and `latest`, paged by cursor."""
    c = find_channel(p)
    size, inclusive = p.number("limit", 100, 1, 999), p.flag("inclusive")
    older_than = _bound(p, c, "latest", upper=True, inclusive=inclusive)
    newer_than = _bound(p, c, "oldest", upper=False, inclusive=inclusive)
    found = chat.history(
        g.db,
        g.actor,
        c,
        limit=size + 1,
        before_id=cursor_position(p) or None,
        mark_read=False,
        authors=False,
        newer_than=newer_than,
        older_than=older_than,
    )
    more = len(found) > size
    return {
        "messages": messages(found[:size]),
        "has_more": more,
        "response_metadata": next_cursor(found[size - 1].id if more else None),
    }


def _bound(p: Params, c: Channel, key: str, *, upper: bool, inclusive: bool) -> chat.Point | None:
    """The (created_at, id) point that time parameter `key` names, or None without one:
    `upper` for `latest` (messages before it are kept), else for `oldest` (after it).
    A ts of one of the channel's messages names that message, which `inclusive` keeps."""
    raw = p.text(key)
    if not raw:
        return None
    if not UNIX_TIME_RE.match(raw):
        raise Invalid(f"'{key}' must be a Unix time such as 1772381616.5", code=f"invalid_ts_{key}")
    if Decimal(raw) == 0:
        return None
    try:
        msg = find_message(p, c, key, include_deleted=True)
    except NotFound:
        when = min(Decimal(raw), LAST_SECOND)
        stamp = EPOCH + dt.timedelta(seconds=int(when), microseconds=int(when % 1 * 1_000_000))
        return stamp, AFTER_ALL if upper == inclusive else BEFORE_ALL
    return msg.created_at, msg.id + (1 if upper else -1) * int(inclusive)


@method("conversations.replies")
def conversations_replies(p: Params) -> dict[str, Any]:
    """A thread: its parent first, then the replies oldest first (from a reply's ts too).
    A deleted parent whose replies live on shows as Slack's tombstone."""
    c = find_channel(p)
    msg = find_message(p, c, code="thread_not_found", include_deleted=True)
    parent = msg
    if msg.thread_parent_id is not None:
        parent = chat.get_message(g.db, g.actor, msg.thread_parent_id, include_deleted=True)
    replies = chat.replies(g.db, g.actor, parent)
    if msg.is_deleted and (msg is not parent or not replies):
        raise NotFound(f"no thread at {msg.ts}", code="thread_not_found")
    chunk, meta = page([parent, *replies], p, 100, 1000)
    return {
        "messages": messages(chunk),
        "has_more": bool(meta["next_cursor"]),
        "response_metadata": meta,
    }


@method("conversations.create", write=True)
def conversations_create(p: Params) -> dict[str, Any]:
    name = p.text("name", missing="invalid_name_required")
    try:
        c = chat.create_channel(g.db, g.actor, name, private=p.flag("is_private"))
    except Invalid as exc:
        if exc.code != "invalid_name":
            raise
        too_long = len(name.lstrip("#")) > 80
        code = "invalid_name_maxlength" if too_long else "invalid_name_specials"
        raise Invalid(exc.message, code=code) from None
    return {"channel": channel_obj(c)}


@method("conversations.invite", write=True)
def conversations_invite(p: Params) -> dict[str, Any]:
    """Invite people; as in Slack, naming yourself or a member fails the call, adding nobody."""
    c = find_channel(p)
    refs = [u for u in p.text("users", missing="no_user").split(",") if u.strip()]
    people = list({x.id: x for x in map(find_person, refs)}.values())
    chat.invite(g.db, g.actor, c, [])  # may the caller invite here at all? (adds nobody)
    if any(x.id == g.actor.id for x in people):
        raise Invalid("you cannot invite yourself", code="cant_invite_self")
    already = ", ".join(f"@{x.handle}" for x in people if chat.is_member(g.db, x, c))
    if already:
        raise Conflict(f"already members: {already}; nobody was added", code="already_in_channel")
    chat.invite(g.db, g.actor, c, people)
    return {"channel": channel_obj(c)}


@method("conversations.archive", write=True)
def conversations_archive(p: Params) -> dict[str, Any]:
    chat.archive_channel(g.db, g.actor, find_channel(p))
    return {}


@method("conversations.unarchive", write=True)
def conversations_unarchive(p: Params) -> dict[str, Any]:
    chat.unarchive_channel(g.db, g.actor, find_channel(p))
    return {}


@method("conversations.open", write=True)
def conversations_open(p: Params) -> dict[str, Any]:
    """The DM or group DM with `users` (opened if new), or the conversation `channel`."""
    if p.text("channel"):
        return {"channel": {"id": find_channel(p).slack_id}, "already_open": True}
    refs = [u.strip() for u in p.text("users", missing="users_list_not_supplied").split(",")]
    if not all(is_user_id(r) for r in refs if r):
        raise NotFound("users are Slack user ids (U...)", code="user_not_found")
    people = [find_person(r) for r in refs if r]
    existing = chat.find_dm(g.db, g.actor, people)
    c = existing or chat.open_dm(g.db, g.actor, people)
    obj = channel_obj(c) if p.flag("return_im") or c.kind == "mpdm" else {"id": c.slack_id}
    answer: dict[str, Any] = {"channel": obj}
    if existing is not None:
        answer |= {"no_op": True, "already_open": True}
    return answer


@method("conversations.close", write=True)
def conversations_close(p: Params) -> dict[str, Any]:
    """Closing a DM hides it in Slack's sidebar; here DMs stay listed, so nothing changes."""
    c = find_channel(p)
    if c.kind not in ("dm", "mpdm"):
        raise Invalid("only direct messages can be closed", code=NOT_FOR_CHANNELS)
    return {"no_op": True, "already_closed": True}


@method("conversations.join", write=True)
def conversations_join(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    already = chat.is_member(g.db, g.actor, c)
    chat.join_channel(g.db, g.actor, c)
    answer: dict[str, Any] = {"channel": channel_obj(c)}
    if already:
        answer["warning"] = "already_in_channel"
        answer["response_metadata"] = {"warnings": ["already_in_channel"]}
    return answer


@method("conversations.leave", write=True)
def conversations_leave(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    if not chat.is_member(g.db, g.actor, c):
        return {"not_in_channel": True}
    chat.leave_channel(g.db, g.actor, c)
    return {}


@method("conversations.kick", write=True)
def conversations_kick(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    chat.kick(g.db, g.actor, c, find_person(p.text("user", missing="user_not_found")))
    return {}


@method("conversations.rename", write=True)
def conversations_rename(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    chat.rename_channel(g.db, g.actor, c, p.text("name", missing="invalid_name"))
    return {"channel": channel_obj(c)}


@method("conversations.setTopic", write=True)
def conversations_set_topic(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    chat.set_topic(g.db, g.actor, c, p.text("topic"))
    return {"channel": channel_obj(c)}


@method("conversations.setPurpose", write=True)
def conversations_set_purpose(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    chat.set_purpose(g.db, g.actor, c, p.text("purpose"))
    return {"channel": channel_obj(c)}


@method("conversations.mark", write=True)
def conversations_mark(p: Params) -> dict[str, Any]:
    """Move the caller's read marker to the message at `ts`."""
    c = find_channel(p)
    chat.mark_read(g.db, g.actor, c, find_message(p, c, "ts", code="invalid_timestamp"))
    return {}
