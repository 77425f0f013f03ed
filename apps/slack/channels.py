"""Channels and conversations: creating, inviting, joining, leaving, topics, archiving,
and finding or opening direct messages."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
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
from officegym.writes import delete_row, insert_row, update_row

CHANNEL_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
DEFAULT_CHANNEL = "general"


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
    if read(s, q.ID_BY_NAME, {"name": name}).first() is not None:
        raise Conflict(f"a channel named #{name} already exists", code="name_taken")
    ts = now(s)
    channel = insert_row(
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
        insert_row(s, Membership, channel_id=channel.id, person_id=person.id, joined_at=now(s))
        added.append(person)
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
    return insert_row(s, Membership, channel_id=channel.id, person_id=actor.id, joined_at=now(s))


def leave_channel(s: Session, actor: Person, channel: Channel) -> None:
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("nobody can leave #general", code="cant_leave_general")
    m = membership(s, actor, channel)
    if m is None:
        raise Conflict("you are not a member of this channel", code="not_in_channel")
    delete_row(s, m)


def set_topic(s: Session, actor: Person, channel: Channel, topic: str) -> Channel:
    require_member(s, actor, channel)
    require_active(channel)
    update_row(s, channel, topic=check_length(topic, 250, "topic"))
    return channel


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
    ids = _dm_ids(actor, others)
    found = recall(s, "slack.dm", tuple(ids), lambda: _find_dm_id(s, ids))
    return get(s, Channel, found) if found is not None else None


def _find_dm_id(s: Session, ids: list[int]) -> int | None:
    kind = "dm" if len(ids) == 2 else "mpdm"
    for cid in read(s, q.DM_CANDIDATES, {"kind": kind, "ids": ids, "n": len(ids)}).scalars().all():
        if read(s, q.MEMBER_COUNT, {"c": cid}).scalar() == len(ids):
            return cid
    return None


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
    channel = insert_row(
        s,
        Channel,
        name=None,
        kind=kind,
        created_by_id=actor.id,
        created_at=ts,
        topic="",
        purpose="",
        is_archived=False,
    )
    for person_id in ids:
        insert_row(s, Membership, channel_id=channel.id, person_id=person_id, joined_at=ts)
    return channel
