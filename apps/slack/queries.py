"""The chat's hot-path SQL statements, built once at import: calls only bind values
(see apps/README.md, "The hot path"). Also `LIVE_POST`, what a live post is to the
seeders and templates that read the whole chat."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.orm import joinedload

from officegym.apps.org.models import Person
from officegym.apps.slack.models import (
    Channel,
    Membership,
    Message,
    Pin,
    Reaction,
    ScheduledMessage,
    Status,
)
from officegym.db import ID_MAX

MEMBERSHIP = select(Membership.id).where(
    Membership.channel_id == bindparam("c"), Membership.person_id == bindparam("p")
)
READ_MARK = select(Membership.id, Membership.last_read_id).where(
    Membership.channel_id == bindparam("c"), Membership.person_id == bindparam("p")
)
ID_BY_NAME = select(Channel.id).where(Channel.name == bindparam("name"))
HISTORY = (
    select(Message)
    .where(
        Message.channel_id == bindparam("c"),
        or_(Message.thread_parent_id.is_(None), Message.broadcast.is_(True)),
        Message.is_deleted.is_(False),
        Message.id <= bindparam("through"),
    )
    .order_by(Message.id.desc())
    .limit(bindparam("n"))
)
# Pages show each author's name: load the authors with the messages.
HISTORY_WITH_AUTHORS = HISTORY.options(joinedload(Message.user))
# A time window: from (t_lo, id_from) through (t_hi, id_through), both kept (ids bound as
# `db.id_param` holds them, so no bound is beyond what PostgreSQL's integer takes).
T_LO, ID_FROM, T_HI, ID_THROUGH = (bindparam(k) for k in ("t_lo", "id_from", "t_hi", "id_through"))
HISTORY_BETWEEN = HISTORY.where(
    or_(Message.created_at > T_LO, and_(Message.created_at == T_LO, Message.id >= ID_FROM)),
    or_(Message.created_at < T_HI, and_(Message.created_at == T_HI, Message.id <= ID_THROUGH)),
)
HISTORY_BY = {  # (load authors, within a window) -> statement
    (False, False): HISTORY,
    (True, False): HISTORY_WITH_AUTHORS,
    (False, True): HISTORY_BETWEEN,
    (True, True): HISTORY_BETWEEN.options(joinedload(Message.user)),
}
# Points before / after every message: ids are held to the database's range when bound.
EARLIEST, LATEST = (dt.datetime.min, 0), (dt.datetime.max, ID_MAX + 1)
REPLY_COUNTS = (
    select(Message.thread_parent_id, func.count())
    .where(
        Message.thread_parent_id.in_(bindparam("ids", expanding=True)),
        Message.is_deleted.is_(False),
    )
    .group_by(Message.thread_parent_id)
)
REACTIONS_OF = (
    select(Reaction.message_id, Reaction.emoji, Person.handle)
    .join(Person, Person.id == Reaction.person_id)
    .where(Reaction.message_id.in_(bindparam("ids", expanding=True)))
    .order_by(Reaction.id)
)
MEMBERS = (
    select(Person)
    .join(Membership, Membership.person_id == Person.id)
    .where(Membership.channel_id == bindparam("c"))
    .order_by(Person.name)
)
MEMBER_IDS = MEMBERS.with_only_columns(Person.id)
PINNED = (
    select(Message)
    .join(Pin, Pin.message_id == Message.id)
    .where(Pin.channel_id == bindparam("c"), Message.is_deleted.is_(False))
    .order_by(Pin.id)
)
REPLIES = (
    select(Message)
    .where(Message.thread_parent_id == bindparam("m"), Message.is_deleted.is_(False))
    .order_by(Message.id)
)
PIN_OF = select(Pin).where(Pin.message_id == bindparam("m"))
PIN_ID = PIN_OF.with_only_columns(Pin.id)
STATUS_OF = select(Status).where(Status.person_id == bindparam("p"))
NEWEST = select(func.max(Message.id)).where(Message.channel_id == bindparam("c"))
MEMBER_COUNT = select(func.count()).where(Membership.channel_id == bindparam("c"))
DM_BY_KEY = select(Channel.id).where(Channel.dm_key == bindparam("k"))
REACTION = select(Reaction).where(
    Reaction.message_id == bindparam("m"),
    Reaction.person_id == bindparam("p"),
    Reaction.emoji == bindparam("e"),
)
REACTION_ID = REACTION.with_only_columns(Reaction.id)
DUE = (  # the oldest scheduled message whose time has come
    select(ScheduledMessage)
    .where(ScheduledMessage.message_id.is_(None), ScheduledMessage.post_at <= bindparam("t"))
    .order_by(ScheduledMessage.post_at, ScheduledMessage.id)
    .limit(1)
)
ANY_DUE = DUE.with_only_columns(ScheduledMessage.id)
LIVE_POST = (  # a live top-level message in an active public or private channel (joined)
    Channel.kind.in_(("public", "private")),
    Channel.is_archived.is_(False),
    Message.thread_parent_id.is_(None),
    Message.is_deleted.is_(False),
)
