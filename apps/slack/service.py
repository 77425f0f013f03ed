"""Chat operations: the only code that changes chat state.

Every function takes the session first and the acting person second, enforces
what that person may see and do, never commits (the caller owns the session)
and raises `officegym.errors` with a message an agent or a person can act on.

Rules (as in Slack): anyone may read public channels; private channels, DMs and
group DMs only their members; posting, reacting and pinning need membership;
archived channels are read-only; only the author edits or deletes a message.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, or_, select
from sqlalchemy.orm import Session, joinedload

from officegym.apps.org.models import Person
from officegym.apps.org.service import Profile, find_person_id, person_ids, profile
from officegym.apps.slack.models import Channel, Membership, Mention, Message, Pin, Reaction, Status
from officegym.clock import now
from officegym.db import get, read
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.memo import recall, watch
from officegym.writes import delete_row, insert_row, update_by_id, update_row

MAX_TEXT = 4000
CHANNEL_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
EMOJI_RE = re.compile(r"^[a-z0-9_+-]{1,60}$")
MENTION_RE = re.compile(r"(?<![\w@])@([a-z0-9._-]+)")
SLACK_ID_RE = re.compile(r"^[CGD](\d{7})$")
DEFAULT_CHANNEL = "general"
DELETED_TEXT = "This message was deleted."  # what readers see of a deleted thread parent
Someone = Person | Profile  # a person as an ORM row or as a directory card: both have .id
Point = tuple[dt.datetime, int]  # a place in message order: (created_at, row id)


# ---------------------------------------------------------------- look-ups


def get_channel(s: Session, actor: Person, ref: str | int) -> Channel:
    """A channel the actor can see, by name ('#sales' or 'sales'), Slack id or row id."""
    channel = _find_channel(s, ref)
    if channel is None or not can_read(s, actor, channel):
        raise NotFound(f"no channel {ref!r} that you can see", code="channel_not_found")
    return channel


def _find_channel(s: Session, ref: str | int) -> Channel | None:
    if isinstance(ref, int):
        return get(s, Channel, ref)
    key = str(ref).strip()
    match = SLACK_ID_RE.match(key)
    if match:
        return get(s, Channel, int(match.group(1)))
    name = key.lstrip("#").lower()
    channel_id = recall(
        s, "slack.channel", name, lambda: read(s, _ID_BY_NAME, {"name": name}).scalar()
    )
    return get(s, Channel, channel_id) if channel_id is not None else None


# Look-ups by name and by (channel, person) are memoized per session; see officegym.memo.
watch("slack.channel", Channel)
watch("slack.membership", Membership)
watch("slack.dm", Channel, Membership)


# Hot-path statements are built once; calls only bind values.
_MEMBERSHIP = select(Membership.id).where(
    Membership.channel_id == bindparam("c"), Membership.person_id == bindparam("p")
)
_READ_MARK = select(Membership.id, Membership.last_read_id).where(
    Membership.channel_id == bindparam("c"), Membership.person_id == bindparam("p")
)
_ID_BY_NAME = select(Channel.id).where(Channel.name == bindparam("name"))
_HISTORY = (
    select(Message)
    .where(
        Message.channel_id == bindparam("c"),
        Message.thread_parent_id.is_(None),
        Message.is_deleted.is_(False),
        Message.id < bindparam("before"),
    )
    .order_by(Message.id.desc())
    .limit(bindparam("n"))
)
# Pages show each author's name: load the authors with the messages.
_HISTORY_WITH_AUTHORS = _HISTORY.options(joinedload(Message.user))
# A time window: strictly between two (created_at, id) points, bound as t_lo/id_lo, t_hi/id_hi.
_T_LO, _ID_LO, _T_HI, _ID_HI = (bindparam(k) for k in ("t_lo", "id_lo", "t_hi", "id_hi"))
_HISTORY_BETWEEN = _HISTORY.where(
    or_(Message.created_at > _T_LO, and_(Message.created_at == _T_LO, Message.id > _ID_LO)),
    or_(Message.created_at < _T_HI, and_(Message.created_at == _T_HI, Message.id < _ID_HI)),
)
_HISTORY_BY = {  # (load authors, within a window) -> statement
    (False, False): _HISTORY,
    (True, False): _HISTORY_WITH_AUTHORS,
    (False, True): _HISTORY_BETWEEN,
    (True, True): _HISTORY_BETWEEN.options(joinedload(Message.user)),
}
_EARLIEST, _LATEST = (dt.datetime.min, 0), (dt.datetime.max, 2**62)
_REPLY_COUNTS = (
    select(Message.thread_parent_id, func.count())
    .where(
        Message.thread_parent_id.in_(bindparam("ids", expanding=True)),
        Message.is_deleted.is_(False),
    )
    .group_by(Message.thread_parent_id)
)
_REACTIONS_OF = (
    select(Reaction.message_id, Reaction.emoji, Person.handle)
    .join(Person, Person.id == Reaction.person_id)
    .where(Reaction.message_id.in_(bindparam("ids", expanding=True)))
    .order_by(Reaction.id)
)
_MEMBERS = (
    select(Person)
    .join(Membership, Membership.person_id == Person.id)
    .where(Membership.channel_id == bindparam("c"))
    .order_by(Person.name)
)
_MEMBER_IDS = _MEMBERS.with_only_columns(Person.id)
_PINNED = (
    select(Message)
    .join(Pin, Pin.message_id == Message.id)
    .where(Pin.channel_id == bindparam("c"), Message.is_deleted.is_(False))
    .order_by(Pin.id)
)
_REPLIES = (
    select(Message)
    .where(Message.thread_parent_id == bindparam("m"), Message.is_deleted.is_(False))
    .order_by(Message.id)
)
_PIN_OF = select(Pin).where(Pin.message_id == bindparam("m"))
_PIN_ID = _PIN_OF.with_only_columns(Pin.id)
_STATUS_OF = select(Status).where(Status.person_id == bindparam("p"))
_NEWEST = select(func.max(Message.id)).where(Message.channel_id == bindparam("c"))
_MEMBER_COUNT = select(func.count()).where(Membership.channel_id == bindparam("c"))
_DM_CANDIDATES = (  # conversations of this kind holding all of these people
    select(Membership.channel_id)
    .join(Channel, Channel.id == Membership.channel_id)
    .where(
        Channel.kind == bindparam("kind"),
        Membership.person_id.in_(bindparam("ids", expanding=True)),
    )
    .group_by(Membership.channel_id)
    .having(func.count() == bindparam("n"))
)


def membership(s: Session, person: Someone, channel: Channel) -> Membership | None:
    found = _membership_id(s, person, channel)
    return get(s, Membership, found) if found is not None else None


def _membership_id(s: Session, person: Someone, channel: Channel) -> int | None:
    key = (channel.id, person.id)
    params = {"c": channel.id, "p": person.id}
    return recall(s, "slack.membership", key, lambda: read(s, _MEMBERSHIP, params).scalar())


def is_member(s: Session, person: Someone, channel: Channel) -> bool:
    return _membership_id(s, person, channel) is not None


def can_read(s: Session, actor: Person, channel: Channel) -> bool:
    return channel.kind == "public" or is_member(s, actor, channel)


def get_message(
    s: Session, actor: Person, message_id: int, *, include_deleted: bool = False
) -> Message:
    """A live message the actor can read; with `include_deleted`, a deleted one too (a
    thread's parent stays the anchor of its live replies)."""
    msg = get(s, Message, message_id)
    hidden = msg is None or (msg.is_deleted and not include_deleted)
    if hidden or not can_read(s, actor, msg.channel):
        raise NotFound(f"no message {message_id} that you can see", code="message_not_found")
    return msg


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
    return list(read(s, _MEMBER_IDS, {"c": channel.id}).scalars())


def members(s: Session, actor: Person, channel: Channel) -> list[Person]:
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    return list(s.scalars(_MEMBERS, {"c": channel.id}))


def history(
    s: Session,
    actor: Person,
    channel: Channel,
    *,
    limit: int = 20,
    before_id: int | None = None,
    mark_read: bool = True,
    authors: bool = True,
    newer_than: Point | None = None,
    older_than: Point | None = None,
) -> list[Message]:
    """Top-level live messages of a channel, newest first (at most 1000); moves the read
    marker. `authors` loads `Message.user` with them (callers that use `org.profile` skip
    it). `newer_than` / `older_than` keep only messages strictly after / before a
    (created_at, id) point; ``(t, 0)`` lies before every message of time ``t``, ``(t, 2**62)``
    after them."""
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    params = {"c": channel.id, "before": before_id or 2**62, "n": _clamp(limit, 1000)}
    window = newer_than is not None or older_than is not None
    if window:
        (t_lo, id_lo), (t_hi, id_hi) = newer_than or _EARLIEST, older_than or _LATEST
        params |= {"t_lo": t_lo, "id_lo": id_lo, "t_hi": t_hi, "id_hi": id_hi}
    msgs = list(s.scalars(_HISTORY_BY[authors, window], params))
    if mark_read and msgs and before_id is None:
        _mark_read(s, actor, channel, msgs[0].id)
    return msgs


def replies(s: Session, actor: Person, parent: Message) -> list[Message]:
    """Live replies in a message's thread, oldest first."""
    if not can_read(s, actor, parent.channel):
        raise NotFound("no such message", code="message_not_found")
    return list(s.scalars(_REPLIES, {"m": parent.id}))


def reply_counts(s: Session, parent_ids: Sequence[int]) -> dict[int, int]:
    if not parent_ids:
        return {}
    return {pid: n for pid, n in read(s, _REPLY_COUNTS, {"ids": list(parent_ids)})}


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


def search_messages(
    s: Session,
    actor: Person,
    *,
    query: str,
    channel: Channel | None = None,
    author: Someone | None = None,
    limit: int = 20,
) -> list[Message]:
    """Live messages containing every word of `query` (at most 20 words, 500 characters),
    in conversations the actor can read."""
    words = [w for w in _limit(query, 500, "search query").split() if w]
    if not words:
        raise Invalid("search query is empty")
    if len(words) > 20:
        raise Invalid("search query has more than 20 words; search with fewer")
    if channel is not None and not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    sqlite = s.get_bind().dialect.name == "sqlite"
    stmt = _search(len(words), channel is not None, author is not None, sqlite)
    params: dict[str, Any] = {f"w{i}": _like_pattern(w) for i, w in enumerate(words)}
    params |= {"p": actor.id, "n": _clamp(limit)}
    params |= {"c": channel.id if channel else None, "a": author.id if author else None}
    return list(s.scalars(stmt, params))


@functools.cache
def _search(words: int, in_channel: bool, by_author: bool, sqlite: bool) -> Select[Any]:
    """The statement of one `search_messages` variant, built once."""
    text = Message.text
    # SQLite's LIKE already ignores ASCII case; `ilike` would wrap every row in lower().
    tests = [
        text.like(bindparam(f"w{i}"), escape="\\")
        if sqlite
        else text.ilike(bindparam(f"w{i}"), escape="\\")
        for i in range(words)
    ]
    stmt = select(Message).where(*tests, Message.is_deleted.is_(False))
    if in_channel:
        stmt = stmt.where(Message.channel_id == bindparam("c"))
    else:
        mine = select(Membership.channel_id).where(Membership.person_id == bindparam("p"))
        readable = select(Channel.id).where(or_(Channel.kind == "public", Channel.id.in_(mine)))
        # `+ 0` keeps SQLite from collecting every readable message through the channel
        # index and sorting them; scanning newest-first stops at `limit` (2.5x faster).
        stmt = stmt.where((Message.channel_id + 0).in_(readable))
    if by_author:
        stmt = stmt.where(Message.user_id == bindparam("a"))
    # Results name their channel: load it with the rows, not one by one.
    stmt = stmt.options(joinedload(Message.channel))
    return stmt.order_by(Message.id.desc()).limit(bindparam("n"))


def _like_pattern(word: str) -> str:
    """A LIKE pattern matching `word` anywhere, with LIKE's wildcards escaped."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def pins(s: Session, actor: Person, channel: Channel) -> list[Message]:
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    return list(s.scalars(_PINNED, {"c": channel.id}))


def reactions_for(s: Session, message_ids: Sequence[int]) -> dict[int, dict[str, list[str]]]:
    """Reactions of many messages at once: message id -> emoji -> handles (in order given)."""
    out: dict[int, dict[str, list[str]]] = {}
    if not message_ids:
        return out
    for mid, emoji, handle in read(s, _REACTIONS_OF, {"ids": list(message_ids)}):
        out.setdefault(mid, {}).setdefault(emoji, []).append(handle)
    return out


def get_status(s: Session, person: Someone) -> Status | None:
    return s.scalars(_STATUS_OF, {"p": person.id}).first()


# ---------------------------------------------------------------- changes


def post_message(
    s: Session, actor: Person, channel: Channel, text: str, *, thread_parent: Message | None = None
) -> Message:
    """Post to a channel (or reply in a thread); the actor must be a member."""
    _require_member(s, actor, channel)
    _require_active(channel)
    text = _clean_text(text)
    if thread_parent is not None:
        if thread_parent.channel_id != channel.id or thread_parent.is_deleted:
            raise Invalid("thread parent is not a live message of this channel")
        if thread_parent.thread_parent_id is not None:
            thread_parent = get(s, Message, thread_parent.thread_parent_id)
    msg = insert_row(
        s,
        Message,
        channel_id=channel.id,
        user_id=actor.id,
        text=text,
        created_at=now(s),
        thread_parent_id=thread_parent.id if thread_parent else None,
    )
    _record_mentions(s, msg)
    return msg


def edit_message(s: Session, actor: Person, message: Message, text: str) -> Message:
    if message.user_id != actor.id:
        raise Forbidden("you can only edit your own messages", code="cant_update_message")
    _require_active(message.channel)
    update_row(s, message, text=_clean_text(text), edited_at=now(s))
    s.execute(Mention.__table__.delete().where(Mention.message_id == message.id))
    _record_mentions(s, message)
    return message


def delete_message(s: Session, actor: Person, message: Message) -> None:
    """Mark the actor's own message deleted (the row stays, hidden from everyone)."""
    if message.user_id != actor.id:
        raise Forbidden("you can only delete your own messages", code="cant_delete_message")
    _require_active(message.channel)
    update_row(s, message, is_deleted=True)


def add_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction:
    emoji = _clean_emoji(emoji)
    _require_member(s, actor, message.channel)
    _require_active(message.channel)
    exists = read(s, _REACTION_ID, {"m": message.id, "p": actor.id, "e": emoji}).first()
    if exists is not None:
        raise Conflict(f"you already reacted with :{emoji}:", code="already_reacted")
    return insert_row(s, Reaction, message_id=message.id, person_id=actor.id, emoji=emoji)


_REACTION = select(Reaction).where(
    Reaction.message_id == bindparam("m"),
    Reaction.person_id == bindparam("p"),
    Reaction.emoji == bindparam("e"),
)
_REACTION_ID = _REACTION.with_only_columns(Reaction.id)


def _own_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction | None:
    return s.scalars(_REACTION, {"m": message.id, "p": actor.id, "e": emoji}).first()


def remove_reaction(s: Session, actor: Person, message: Message, emoji: str) -> None:
    emoji = _clean_emoji(emoji)
    _require_active(message.channel)
    reaction = _own_reaction(s, actor, message, emoji)
    if reaction is None:
        raise NotFound(f"you have no :{emoji}: reaction on this message", code="no_reaction")
    delete_row(s, reaction)


def pin_message(s: Session, actor: Person, message: Message) -> Pin:
    _require_member(s, actor, message.channel)
    _require_active(message.channel)
    if message.thread_parent_id is not None:
        raise Invalid("only top-level messages can be pinned")
    if read(s, _PIN_ID, {"m": message.id}).first() is not None:
        raise Conflict("message is already pinned", code="already_pinned")
    return insert_row(
        s,
        Pin,
        channel_id=message.channel_id,
        message_id=message.id,
        pinned_by_id=actor.id,
        pinned_at=now(s),
    )


def unpin_message(s: Session, actor: Person, message: Message) -> None:
    _require_member(s, actor, message.channel)
    _require_active(message.channel)
    pin = s.scalars(_PIN_OF, {"m": message.id}).first()
    if pin is None:
        raise NotFound("message is not pinned", code="no_pin")
    delete_row(s, pin)


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
    if read(s, _ID_BY_NAME, {"name": name}).first() is not None:
        raise Conflict(f"a channel named #{name} already exists", code="name_taken")
    ts = now(s)
    channel = insert_row(
        s,
        Channel,
        name=name,
        kind="private" if private else "public",
        topic=_limit(topic, 250, "topic"),
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
    _require_member(s, actor, channel)
    _require_active(channel)
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
    _require_active(channel)
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
    _require_member(s, actor, channel)
    _require_active(channel)
    update_row(s, channel, topic=_limit(topic, 250, "topic"))
    return channel


def archive_channel(s: Session, actor: Person, channel: Channel) -> Channel:
    if channel.name == DEFAULT_CHANNEL:
        raise Forbidden("#general cannot be archived", code="cant_archive_general")
    if channel.kind not in ("public", "private"):
        raise Invalid(
            "direct messages cannot be archived", code="method_not_supported_for_channel_type"
        )
    _require_member(s, actor, channel)
    _require_active(channel)
    update_row(s, channel, is_archived=True)
    return channel


def find_dm(s: Session, actor: Person, others: Sequence[Someone]) -> Channel | None:
    """The existing DM or group DM with exactly these people, if any (creates nothing)."""
    ids = _dm_ids(actor, others)
    found = recall(s, "slack.dm", tuple(ids), lambda: _find_dm_id(s, ids))
    return get(s, Channel, found) if found is not None else None


def _find_dm_id(s: Session, ids: list[int]) -> int | None:
    kind = "dm" if len(ids) == 2 else "mpdm"
    for cid in read(s, _DM_CANDIDATES, {"kind": kind, "ids": ids, "n": len(ids)}).scalars().all():
        if read(s, _MEMBER_COUNT, {"c": cid}).scalar() == len(ids):
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


def set_status(s: Session, actor: Person, text: str, emoji: str = "") -> Status:
    text = _limit(text.strip(), 100, "status text")
    emoji = _clean_emoji(emoji) if emoji else ""
    status = get_status(s, actor)
    if status is None:
        return insert_row(s, Status, person_id=actor.id, text=text, emoji=emoji)
    update_row(s, status, text=text, emoji=emoji)
    return status


def mark_read(s: Session, actor: Person, channel: Channel) -> None:
    newest = read(s, _NEWEST, {"c": channel.id}).scalar()
    if newest:
        _mark_read(s, actor, channel, newest)


# ---------------------------------------------------------------- helpers


def _clamp(limit: int, most: int = 200) -> int:
    return max(1, min(int(limit), most))


def _require_member(s: Session, actor: Person, channel: Channel) -> None:
    if is_member(s, actor, channel):
        return
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    raise Forbidden(
        f"you are not a member of #{channel.name}; join it first", code="not_in_channel"
    )


def _require_active(channel: Channel) -> None:
    if channel.is_archived:
        raise Forbidden(f"#{channel.name} is archived and read-only", code="is_archived")


def _clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise Invalid("message text is empty", code="no_text")
    return _limit(text, MAX_TEXT, "message text", code="msg_too_long")


def _clean_emoji(emoji: str) -> str:
    name = emoji.strip().strip(":").lower()
    if not EMOJI_RE.match(name):
        raise Invalid(f"invalid emoji name {emoji!r}", code="invalid_name")
    return name


def _limit(value: str, n: int, what: str, *, code: str = "invalid_arguments") -> str:
    if len(value) > n:
        raise Invalid(f"{what} is longer than {n} characters", code=code)
    return value


def _mark_read(s: Session, actor: Person, channel: Channel, message_id: int) -> None:
    row = read(s, _READ_MARK, {"c": channel.id, "p": actor.id}).first()
    if row is not None and row.last_read_id < message_id:
        update_by_id(s, Membership, row.id, last_read_id=message_id)


def _record_mentions(s: Session, msg: Message) -> None:
    handles = set(MENTION_RE.findall(msg.text))
    if not handles:
        return
    for person_id in sorted(person_ids(s, handles)):
        insert_row(s, Mention, message_id=msg.id, person_id=person_id)


def resolve_people(s: Session, refs: Sequence[str]) -> list[Profile]:
    """People by handle, email or name; NotFound names the first unknown one."""
    return [profile(s, find_person_id(s, r)) for r in refs]
