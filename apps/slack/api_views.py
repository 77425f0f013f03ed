"""The JSON objects the Slack Web API subset returns: conversations, messages (text in
Slack's markup, `officegym.apps.slack.markup`), users with the profile fields bots read,
files, bookmarks and scheduled messages. Read through the services as the request's
actor (`g.actor`) on its session (`g.db`)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from flask import g, url_for

from officegym import clock
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import TEAM_ID, user_id
from officegym.apps.slack.markup import to_wire
from officegym.apps.slack.models import Bookmark, Channel, File, Message, ScheduledMessage

__all__ = [
    "PROFILE_FIELDS",
    "bookmark_obj",
    "channel_obj",
    "file_obj",
    "messages",
    "profile_obj",
    "scheduled_obj",
    "seconds",
    "user_obj",
]

# Custom profile fields (team.profile.get): Slack has no built-in team or manager field.
PROFILE_FIELDS = [
    {"id": "Xf0000TEAM", "ordering": 0, "label": "Team", "hint": "", "type": "text"},
    {"id": "Xf00MANAGR", "ordering": 1, "label": "Manager", "hint": "", "type": "user"},
]


def seconds(when: dt.datetime) -> int:
    """Unix seconds of a naive UTC time (how the models store times)."""
    return int(when.replace(tzinfo=dt.UTC).timestamp())


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
    """Message objects with thread, reaction, file and edit details, as Slack returns them."""
    ids = [m.id for m in msgs]
    counts = chat.reply_counts(g.db, ids)
    reactions = chat.reactions_for(g.db, ids)
    files = chat.files_of(g.db, ids)
    names: dict[str, str | None] = {}
    return [
        _message_obj(m, counts.get(m.id, 0), reactions.get(m.id, {}), files.get(m.id, []), names)
        for m in msgs
    ]


def _message_obj(
    m: Message, replies: int, reactions: dict[str, list[str]], files: list[File], names: dict
) -> dict[str, Any]:
    if m.is_deleted:
        return _tombstone(m, replies)
    obj: dict[str, Any] = {
        "type": "message",
        "user": user_id(m.user_id),
        "text": to_wire(g.db, m.text, names),
        "ts": m.ts,
        "team": TEAM_ID,
    }
    if m.thread_parent_id is not None:  # the parent may be deleted: its ts still names the thread
        parent = chat.get_message(g.db, g.actor, m.thread_parent_id, include_deleted=True)
        obj.update(thread_ts=parent.ts, parent_user_id=user_id(parent.user_id))
        if m.broadcast:
            obj["subtype"] = "thread_broadcast"
    elif replies:
        obj.update(thread_ts=m.ts, reply_count=replies)
    if reactions:
        obj["reactions"] = [
            {"name": e, "users": [_uid_of(h) for h in hs], "count": len(hs)}
            for e, hs in reactions.items()
        ]
    if files:
        obj["files"] = [file_obj(f) for f in files]
        obj["upload"] = True
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
    return user_id(org.find_person_id(g.db, handle))


def user_obj(p: Person) -> dict[str, Any]:
    """A user as users.info / users.list return it, with the profile bots read."""
    offset = _tz_offset(p.timezone)
    return {
        "id": user_id(p.id),
        "team_id": TEAM_ID,
        "name": p.handle,
        "real_name": p.name,
        "deleted": False,
        "is_bot": False,
        "is_admin": False,
        "is_owner": False,
        "is_app_user": False,
        "tz": p.timezone,
        "tz_label": p.timezone.split("/")[-1].replace("_", " ") + " time",
        "tz_offset": offset,
        "profile": profile_obj(p),
    }


def profile_obj(p: Person) -> dict[str, Any]:
    """users.profile.get's profile: names, title, email, status, and the custom fields
    Team and Manager (`PROFILE_FIELDS`)."""
    card = org.profile(g.db, p.id)
    status = chat.get_status(g.db, p)
    first, _, last = p.name.partition(" ")
    fields = {"Xf0000TEAM": {"value": card.team, "alt": ""}}
    if card.manager:
        boss = org.find_person_id(g.db, card.manager)
        fields["Xf00MANAGR"] = {"value": user_id(boss), "alt": card.manager}
    return {
        "real_name": p.name,
        "real_name_normalized": p.name,
        "display_name": p.handle,
        "display_name_normalized": p.handle,
        "first_name": first,
        "last_name": last,
        "email": p.email,
        "title": p.title,
        "phone": "",
        "team": TEAM_ID,
        "status_text": status.text if status else "",
        "status_emoji": f":{status.emoji}:" if status and status.emoji else "",
        "status_expiration": 0,
        "fields": fields,
    }


def _tz_offset(name: str) -> int:
    """Seconds east of UTC of a time zone at the world's date (0 if unknown)."""
    when = clock.peek(g.db)
    try:
        offset = when.replace(tzinfo=dt.UTC).astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return 0
    return int(offset.total_seconds()) if offset is not None else 0


def file_obj(f: File) -> dict[str, Any]:
    """A file as files.info and message objects show it."""
    url = url_for("slack_api.file_content", file_id=f.id, _external=True)
    obj: dict[str, Any] = {
        "id": f"F{f.id:07d}",
        "created": seconds(f.created_at),
        "timestamp": seconds(f.created_at),
        "name": f.name,
        "title": f.title,
        "mimetype": f.mimetype,
        "filetype": f.filetype,
        "pretty_type": f.filetype.upper(),
        "user": user_id(f.user_id),
        "size": f.size,
        "is_public": False,
        "url_private": url,
        "url_private_download": url,
        "channels": [],
        "groups": [],
        "ims": [],
    }
    if f.channel_id is not None:
        channel = chat.get_channel(g.db, g.actor, f.channel_id)
        key = {"public": "channels", "private": "groups"}.get(channel.kind, "ims")
        obj[key] = [channel.slack_id]
    if f.content is not None:
        obj["preview"] = f.content[:1000]
    return obj


def bookmark_obj(b: Bookmark) -> dict[str, Any]:
    channel = chat.get_channel(g.db, g.actor, b.channel_id)
    return {
        "id": f"Bk{b.id:07d}",
        "channel_id": channel.slack_id,
        "title": b.title,
        "link": b.link,
        "emoji": f":{b.emoji}:" if b.emoji else "",
        "type": "link",
        "date_created": seconds(b.created_at),
        "date_updated": seconds(b.updated_at),
        "created_by": user_id(b.created_by_id),
    }


def scheduled_obj(m: ScheduledMessage) -> dict[str, Any]:
    channel = chat.get_channel(g.db, g.actor, m.channel_id)
    return {
        "id": f"Q{m.id:07d}",
        "channel_id": channel.slack_id,
        "post_at": seconds(m.post_at),
        "date_created": seconds(m.created_at),
        "text": to_wire(g.db, m.text),
    }
