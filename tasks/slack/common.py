"""World look-ups and allowances shared by the Slack templates (read-only)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership, Message, Pin, Reaction
from officegym.apps.slack.queries import LIVE_POST

__all__ = ["channels_of", "index", "member_ids", "pinned_ids", "quote", "reacted"]


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
            .where(*LIVE_POST)
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


def quote(text: str, n: int = 60) -> str:
    """A recognisable excerpt of a message for goal texts."""
    return text if len(text) <= n else text[: n - 3].rsplit(" ", 1)[0] + "..."
