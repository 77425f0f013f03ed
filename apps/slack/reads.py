"""Reading the chat: channel lists, members, threads, unread counts, pins, reactions
and statuses (search has its own module, `search`). Nothing here changes state; every
read checks what the actor may see (`access`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, or_, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import queries as q
from officegym.apps.slack.access import Someone, can_read, clamp
from officegym.apps.slack.models import Channel, Membership, Message, Reaction, Status
from officegym.db import read
from officegym.errors import NotFound


def list_channels(
    s: Session,
    actor: Person,
    *,
    query: str | None = None,
    member_only: bool = False,
    include_archived: bool = False,
) -> list[Channel]:
    """Public channels plus the private ones the actor belongs to (no DMs), by name."""
    stmt = _channel_list(member_only, include_archived, bool(query))
    like = f"%{(query or '').strip().lstrip('#').lower()}%"
    return list(s.scalars(stmt, {"p": actor.id, "like": like}))


@functools.cache
def _channel_list(member_only: bool, include_archived: bool, query: bool) -> Select[Any]:
    """The statement of one `list_channels` variant, built once."""
    mine = select(Membership.channel_id).where(Membership.person_id == bindparam("p"))
    stmt = select(Channel).where(Channel.kind.in_(("public", "private")))
    if member_only:
        stmt = stmt.where(Channel.id.in_(mine))
    else:
        stmt = stmt.where(or_(Channel.kind == "public", Channel.id.in_(mine)))
    if not include_archived:
        stmt = stmt.where(Channel.is_archived.is_(False))
    if query:
        like = bindparam("like")
        stmt = stmt.where(
            or_(Channel.name.ilike(like), Channel.topic.ilike(like), Channel.purpose.ilike(like))
        )
    return stmt.order_by(Channel.name)


def list_conversations_of(s: Session, actor: Person) -> list[Channel]:
    """DMs and group DMs the actor is part of, newest first."""
    stmt = (
        select(Channel)
        .join(Membership, Membership.channel_id == Channel.id)
        .where(Membership.person_id == actor.id, Channel.kind.in_(("dm", "mpdm")))
        .order_by(Channel.id.desc())
    )
    return list(s.scalars(stmt))


def member_ids(s: Session, actor: Person, channel: Channel) -> list[int]:
    """The ids of `members` (no objects; see `org.profile`)."""
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    return list(read(s, q.MEMBER_IDS, {"c": channel.id}).scalars())


def members(s: Session, actor: Person, channel: Channel) -> list[Person]:
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    return list(s.scalars(q.MEMBERS, {"c": channel.id}))


def replies(s: Session, actor: Person, parent: Message) -> list[Message]:
    """Live replies in a message's thread, oldest first."""
    if not can_read(s, actor, parent.channel):
        raise NotFound("no such message", code="message_not_found")
    return list(s.scalars(q.REPLIES, {"m": parent.id}))


def reply_counts(s: Session, parent_ids: Sequence[int]) -> dict[int, int]:
    if not parent_ids:
        return {}
    return {pid: n for pid, n in read(s, q.REPLY_COUNTS, {"ids": list(parent_ids)})}


def unread_counts(s: Session, actor: Person) -> dict[int, int]:
    """Unread top-level messages per conversation the actor belongs to."""
    stmt = (
        select(Membership.channel_id, func.count(Message.id))
        .join(
            Message,
            and_(
                Message.channel_id == Membership.channel_id,
                Message.id > Membership.last_read_id,
                Message.thread_parent_id.is_(None),
                Message.is_deleted.is_(False),
                Message.user_id != actor.id,
            ),
        )
        .where(Membership.person_id == actor.id)
        .group_by(Membership.channel_id)
    )
    return {cid: n for cid, n in s.execute(stmt)}


def pins(s: Session, actor: Person, channel: Channel) -> list[Message]:
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    return list(s.scalars(q.PINNED, {"c": channel.id}))


def reactions_for(s: Session, message_ids: Sequence[int]) -> dict[int, dict[str, list[str]]]:
    """Reactions of many messages at once: message id -> emoji -> handles (in order given)."""
    out: dict[int, dict[str, list[str]]] = {}
    if not message_ids:
        return out
    for mid, emoji, handle in read(s, q.REACTIONS_OF, {"ids": list(message_ids)}):
        out.setdefault(mid, {}).setdefault(emoji, []).append(handle)
    return out


def get_status(s: Session, person: Someone) -> Status | None:
    return s.scalars(q.STATUS_OF, {"p": person.id}).first()


def reactions_by_person(s: Session, actor: Person, person: Someone, *, limit: int = 100) -> list:
    """(message, emoji) of the reactions `person` made on messages the actor can read,
    newest first."""
    stmt = (
        select(Message, Reaction.emoji)
        .join(Reaction, Reaction.message_id == Message.id)
        .where(Reaction.person_id == person.id, Message.is_deleted.is_(False))
        .order_by(Reaction.id.desc())
    )
    found = [(m, e) for m, e in s.execute(stmt) if can_read(s, actor, m.channel)]
    return found[: clamp(limit, 1000)]
