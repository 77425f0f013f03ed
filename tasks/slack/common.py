"""World look-ups and allowances shared by the Slack templates (read-only)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Membership, Message, Pin, Reaction
from officegym.tasks.checks import Allow, NewRowId
from officegym.tools import ToolCall

__all__ = [
    "allow_dm",
    "allow_post",
    "call",
    "channels_of",
    "member_ids",
    "new_channel",
    "next_id",
    "people",
    "quote",
]


def call(tool: str, /, **arguments: object) -> ToolCall:
    return ToolCall(tool, dict(arguments))


def people(w: Session) -> list[Person]:
    return list(w.scalars(select(Person).order_by(Person.id)))


def member_ids(w: Session, channel_id: int) -> set[int]:
    return set(index(w).members.get(channel_id, ()))


def channels_of(
    w: Session, person: Person, *, kinds: Sequence[str] = ("public", "private")
) -> list[Channel]:
    """Active named channels `person` belongs to, by id."""
    stmt = (
        select(Channel)
        .join(Membership, Membership.channel_id == Channel.id)
        .where(
            Membership.person_id == person.id,
            Channel.kind.in_(kinds),
            Channel.is_archived.is_(False),
        )
        .order_by(Channel.id)
    )
    return list(w.scalars(stmt))


@dataclass(frozen=True)
class Post:
    """A live top-level message of a named, active channel, as the index keeps it."""

    id: int
    channel_id: int
    user_id: int
    text: str


@dataclass(frozen=True)
class ChatIndex:
    """Facts templates look up often, computed once per world in a few queries."""

    posts: dict[int, list[Post]]  # channel id -> posts, oldest first
    members: dict[int, set[int]]  # channel id -> person ids
    quotable: dict[int, list[Post]]  # channel id -> posts whose text is unique there
    replied: frozenset[int]  # ids of messages that have live replies


def index(w: Session) -> ChatIndex:
    return _index(w.get_bind())


@functools.lru_cache(maxsize=8)
def _index(engine: Engine) -> ChatIndex:
    with Session(engine) as w:
        rows = w.execute(
            select(Message.id, Message.channel_id, Message.user_id, Message.text)
            .join(Channel, Channel.id == Message.channel_id)
            .where(
                Channel.kind.in_(("public", "private")),
                Channel.is_archived.is_(False),
                Message.thread_parent_id.is_(None),
                Message.is_deleted.is_(False),
            )
            .order_by(Message.id)
        ).all()
        members: dict[int, set[int]] = {}
        for cid, pid in w.execute(select(Membership.channel_id, Membership.person_id)):
            members.setdefault(cid, set()).add(pid)
        replied = frozenset(
            w.scalars(
                select(Message.thread_parent_id)
                .where(Message.thread_parent_id.is_not(None), Message.is_deleted.is_(False))
                .distinct()
            )
        )
    posts: dict[int, list[Post]] = {}
    for r in rows:
        posts.setdefault(r.channel_id, []).append(Post(r.id, r.channel_id, r.user_id, r.text))
    quotable = {}
    for cid, items in posts.items():
        counts = Counter(p.text for p in items)
        quotable[cid] = [p for p in items if counts[p.text] == 1 and len(p.text) >= 30]
    return ChatIndex(posts, members, quotable, replied)


def pinned_ids(w: Session) -> set[int]:
    return set(w.scalars(select(Pin.message_id)))


def reacted(w: Session, message: Message, person: Person, emoji: str) -> bool:
    stmt = select(Reaction.id).where(
        Reaction.message_id == message.id, Reaction.person_id == person.id, Reaction.emoji == emoji
    )
    return w.scalar(stmt) is not None


def next_id(w: Session, model: type) -> int:
    """The id the next inserted row of `model` gets (SQLite: max(id) + 1), so reference
    solutions can name rows they create."""
    return (w.scalar(select(func.max(model.id))) or 0) + 1


def quote(text: str, n: int = 60) -> str:
    """A recognisable excerpt of a message for goal texts."""
    return text if len(text) <= n else text[: n - 3].rsplit(" ", 1)[0] + "..."


def allow_post(
    channel_id: int | NewRowId | None,
    user_id: int,
    *,
    thread_parent_id: int | None = None,
    limit: int = 1,
) -> list[Allow]:
    """Allow `limit` new messages by the persona in one conversation (and their mentions):
    one by default, as many as the goal asks for (one announcement is one post). Posts
    that match the reference's use the allowance up first, so a reference posting there
    leaves no room for another unless `limit` says so."""
    where: dict[str, object] = {"user_id": user_id, "thread_parent_id": thread_parent_id}
    if channel_id is not None:
        where["channel_id"] = channel_id
    return [Allow("slack_message", where=where, limit=limit), Allow("slack_mention")]


def new_channel(**where: object) -> NewRowId:
    """The channel matching `where` that the episode creates (its id is known only then)."""
    return NewRowId("slack_channel", where)


def allow_dm(w: Session, me: Person, other: Person, *, limit: int = 1) -> list[Allow]:
    """Allow `limit` direct messages from `me` to `other`: in their DM if it exists, else in
    the one DM the episode opens between them (the channel and its two memberships)."""
    existing = chat.find_dm(w, me, [other])
    if existing is not None:
        return allow_post(existing.id, me.id, limit=limit)
    dm = new_channel(kind="dm", created_by_id=me.id)
    return [
        Allow("slack_channel", where={"kind": "dm", "created_by_id": me.id}, limit=1),
        Allow("slack_membership", where={"channel_id": dm}, limit=2),
        *allow_post(dm, me.id, limit=limit),
    ]


def pick(rng: random.Random, items: Sequence, what: str):
    """rng.choice that names what was missing instead of raising IndexError."""
    if not items:
        raise LookupError(f"the world has no {what} for this template")
    return rng.choice(list(items))
