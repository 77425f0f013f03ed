"""Channels and conversations: creating, inviting, joining, leaving, topics, archiving,
and finding or opening direct messages."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import events
from officegym.apps.slack import queries as q
from officegym.apps.slack.access import (
    Someone,
    check_length,
    is_member,
    membership,
    require_active,
    require_member,
)
from officegym.apps.slack.models import Channel, Membership
from officegym.clock import now
from officegym.db import get, read
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.memo import recall
from officegym.writes import delete_row, insert_new, insert_row, unique_or, update_row

CHANNEL_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
DEFAULT_CHANNEL = "general"
NOT_FOR_DMS = "method_not_supported_for_channel_type"


def create_channel(
    s: Session, actor: Person, name: str, *, private: bool = False, topic: str = ""
) -> Channel:
    """Create a channel; names are lowercase letters, digits, '-' and '_' (as in Slack)."""
    name = name.strip().lstrip("#")
    if not CHANNEL_NAME_RE.match(name):
        raise Invalid(
            f"invalid channel name {name!r}: use 1-80 lowercase letters, digits, '-' or '_'",
            code="invalid_name",
        )
    taken = Conflict(f"a channel named #{name} already exists", code="name_taken")
    if read(s, q.ID_BY_NAME, {"name": name}).first() is not None:
        raise taken
    ts = now(s)
    channel = insert_new(
        s,
        Channel,
        name=name,
        kind="private" if private else "public",
        topic=check_length(topic, 250, "topic"),
        purpose="",
        is_archived=False,
        created_by_id=actor.id,
        created_at=ts,
    )
    if channel is None:  # another session created it since the check
        raise taken
    insert_row(s, Membership, channel_id=channel.id, person_id=actor.id, joined_at=ts)
    return channel


def invite(s: Session, actor: Person, channel: Channel, people: Sequence[Someone]) -> list[Someone]:
    """Add people to a channel the actor belongs to; returns those newly added."""
    if channel.kind not in ("public", "private"):
        raise Invalid(
            "people cannot be invited to a direct message",
            code="method_not_supported_for_channel_type",
        )
    require_member(s, actor, channel)
    require_active(channel)
    added = []
    for person in people:
        if is_member(s, person, channel):
            continue
        row = {"channel_id": channel.id, "person_id": person.id, "joined_at": now(s)}
        if insert_new(s, Membership, **row) is not None:  # None: added meanwhile by another
            added.append(person)
            events.member_joined(s, channel, person.id, actor.id)
    if not added and people:
        raise Conflict("everyone named is already a member", code="already_in_channel")
    return added


def join_channel(s: Session, actor: Person, channel: Channel) -> Membership:
    if channel.kind != "public":
        raise NotFound("no such channel", code="channel_not_found")
    require_active(channel)
    existing = membership(s, actor, channel)
    if existing is not None:
        return existing
    row = {"channel_id": channel.id, "person_id": actor.id, "joined_at": now(s)}
    joined = insert_new(s, Membership, **row)
    if joined is None:  # joined by a concurrent request of the same person
        found = membership(s, actor, channel)
        assert found is not None
        return found
    events.member_joined(s, channel, actor.id, None)
    return joined


def leave_channel(s: Session, actor: Person, channel: Channel) -> None:
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("nobody can leave #general", code="cant_leave_general")
    if channel.kind in ("dm", "mpdm"):
        raise Invalid(
            "a direct message cannot be left", code="method_not_supported_for_channel_type"
        )
    m = membership(s, actor, channel)
    if m is None:
        raise Conflict("you are not a member of this channel", code="not_in_channel")
    delete_row(s, m)


def set_topic(s: Session, actor: Person, channel: Channel, topic: str) -> Channel:
    require_member(s, actor, channel)
    require_active(channel)
    update_row(s, channel, topic=check_length(topic, 250, "topic", code="too_long"))
    return channel


def set_purpose(s: Session, actor: Person, channel: Channel, purpose: str) -> Channel:
    """Set what a channel is for (members only; 250 characters)."""
    require_member(s, actor, channel)
    require_active(channel)
    update_row(s, channel, purpose=check_length(purpose, 250, "purpose", code="too_long"))
    return channel


def rename_channel(s: Session, actor: Person, channel: Channel, name: str) -> Channel:
    """Rename a channel (its creator only, as in Slack without admins; #general never)."""
    if channel.kind not in ("public", "private"):
        raise Invalid("a direct message has no name", code=NOT_FOR_DMS)
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("#general cannot be renamed", code="cant_rename_general")
    require_member(s, actor, channel)
    require_active(channel)
    if channel.created_by_id != actor.id:
        raise Forbidden("only the channel's creator may rename it", code="not_authorized")
    name = name.strip().lstrip("#")
    if not CHANNEL_NAME_RE.match(name):
        raise Invalid(f"invalid channel name {name!r}", code="invalid_name")
    if name == channel.name:
        return channel
    if read(s, q.ID_BY_NAME, {"name": name}).first() is not None:
        raise Conflict(f"a channel named #{name} already exists", code="name_taken")
    with unique_or(Conflict(f"a channel named #{name} already exists", code="name_taken")):
        update_row(s, channel, name=name)
    return channel


def unarchive_channel(s: Session, actor: Person, channel: Channel) -> Channel:
    """Bring an archived channel back (its members only)."""
    if not channel.is_archived:
        raise Conflict(f"#{channel.name} is not archived", code="not_archived")
    require_member(s, actor, channel)
    update_row(s, channel, is_archived=False)
    return channel


def kick(s: Session, actor: Person, channel: Channel, person: Someone) -> None:
    """Remove someone else from a channel the actor belongs to (not from #general, not
    from a DM)."""
    if channel.kind not in ("public", "private"):
        raise Invalid("nobody can be removed from a DM", code=NOT_FOR_DMS)
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("nobody can be removed from #general", code="cant_kick_from_general")
    if person.id == actor.id:
        raise Invalid("leave the channel instead of removing yourself", code="cant_kick_self")
    require_member(s, actor, channel)
    require_active(channel)
    m = membership(s, person, channel)
    if m is None:
        raise NotFound(f"@{person.handle} is not in #{channel.name}", code="not_in_channel")
    delete_row(s, m)


def archive_channel(s: Session, actor: Person, channel: Channel) -> Channel:
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("#general cannot be archived", code="cant_archive_general")
    if channel.kind not in ("public", "private"):
        raise Invalid(
            "direct messages cannot be archived", code="method_not_supported_for_channel_type"
        )
    require_member(s, actor, channel)
    require_active(channel)
    update_row(s, channel, is_archived=True)
    return channel


def find_dm(s: Session, actor: Person, others: Sequence[Someone]) -> Channel | None:
    """The existing DM or group DM with exactly these people, if any (creates nothing)."""
    key = dm_key(_dm_ids(actor, others))
    found = recall(s, "slack.dm", key, lambda: read(s, q.DM_BY_KEY, {"k": key}).scalar())
    return get(s, Channel, found) if found is not None else None


def dm_key(ids: Sequence[int]) -> str:
    """The key of the conversation of exactly these people (sorted ids)."""
    return ",".join(map(str, sorted(ids)))


def _dm_ids(actor: Person, others: Sequence[Someone]) -> list[int]:
    ids = sorted({p.id for p in others} | {actor.id})
    if len(ids) < 2:
        raise Invalid("name at least one other person", code="invalid_users")
    if len(ids) > 9:
        raise Invalid("a group DM holds at most 9 people", code="too_many_users")
    return ids


def open_dm(s: Session, actor: Person, others: Sequence[Someone]) -> Channel:
    """The DM (one other person) or group DM (2-8 others) with exactly these people,
    created if it does not exist yet."""
    found = find_dm(s, actor, others)
    if found is not None:
        return found
    ids = _dm_ids(actor, others)
    kind = "dm" if len(ids) == 2 else "mpdm"
    ts = now(s)
    channel = insert_new(
        s,
        Channel,
        name=None,
        kind=kind,
        created_by_id=actor.id,
        created_at=ts,
        topic="",
        purpose="",
        is_archived=False,
        dm_key=dm_key(ids),
    )
    if channel is None:  # opened by a concurrent request: that one is the conversation
        found = find_dm(s, actor, others)
        assert found is not None
        return found
    for person_id in ids:
        insert_row(s, Membership, channel_id=channel.id, person_id=person_id, joined_at=ts)
    return channel
