"""Chat operations: the only code that changes chat state.

Every function takes the session first and the acting person second, enforces
what that person may see and do, never commits (the caller owns the session)
and raises `officegym.errors` with a message an agent or a person can act on.

This module holds messages (history, posting, edits, deletes), reactions, pins
and statuses; it re-exports the rest so that callers import one module:
`access` (look-ups and the rules: who may see and do what), `reads` (lists,
threads, search) and `channels` (channels, invitations, direct messages). The
statements they run are built once in `queries`.
"""

from __future__ import annotations

import datetime as dt
import re

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.org.service import person_ids
from officegym.apps.slack import queries as q
from officegym.apps.slack.access import (
    SLACK_ID_RE,
    Someone,
    can_read,
    check_length,
    clamp,
    get_channel,
    get_message,
    is_member,
    membership,
    require_active,
    require_member,
    resolve_people,
)
from officegym.apps.slack.channels import (
    CHANNEL_NAME_RE,
    DEFAULT_CHANNEL,
    archive_channel,
    create_channel,
    find_dm,
    invite,
    join_channel,
    leave_channel,
    open_dm,
    set_topic,
)
from officegym.apps.slack.models import Channel, Membership, Mention, Message, Pin, Reaction, Status
from officegym.apps.slack.reads import (
    get_status,
    list_channels,
    list_conversations_of,
    member_ids,
    members,
    pins,
    reactions_for,
    replies,
    reply_counts,
    search_messages,
    unread_counts,
)
from officegym.clock import now
from officegym.db import get, read
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.writes import delete_row, insert_new, insert_row, update_by_id, update_row

__all__ = [
    "CHANNEL_NAME_RE",
    "DEFAULT_CHANNEL",
    "DELETED_TEXT",
    "EMOJI_RE",
    "MAX_TEXT",
    "MENTION_RE",
    "SLACK_ID_RE",
    "Point",
    "Someone",
    "add_reaction",
    "archive_channel",
    "can_read",
    "create_channel",
    "delete_message",
    "edit_message",
    "find_dm",
    "get_channel",
    "get_message",
    "get_status",
    "history",
    "invite",
    "is_member",
    "join_channel",
    "leave_channel",
    "list_channels",
    "list_conversations_of",
    "mark_read",
    "member_ids",
    "members",
    "membership",
    "open_dm",
    "pin_message",
    "pins",
    "post_message",
    "reactions_for",
    "remove_reaction",
    "replies",
    "reply_counts",
    "resolve_people",
    "search_messages",
    "set_status",
    "set_topic",
    "unpin_message",
    "unread_counts",
]

MAX_TEXT = 4000
EMOJI_RE = re.compile(r"^[a-z0-9_+-]{1,60}$")
MENTION_RE = re.compile(r"(?<![\w@])@([a-z0-9._-]+)")
DELETED_TEXT = "This message was deleted."  # what readers see of a deleted thread parent
Point = tuple[dt.datetime, int]  # a place in message order: (created_at, row id)


# ---------------------------------------------------------------- messages


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
    params = {"c": channel.id, "before": before_id or 2**62, "n": clamp(limit, 1000)}
    window = newer_than is not None or older_than is not None
    if window:
        (t_lo, id_lo), (t_hi, id_hi) = newer_than or q.EARLIEST, older_than or q.LATEST
        params |= {"t_lo": t_lo, "id_lo": id_lo, "t_hi": t_hi, "id_hi": id_hi}
    msgs = list(s.scalars(q.HISTORY_BY[authors, window], params))
    if mark_read and msgs and before_id is None:
        _mark_read(s, actor, channel, msgs[0].id)
    return msgs


def post_message(
    s: Session, actor: Person, channel: Channel, text: str, *, thread_parent: Message | None = None
) -> Message:
    """Post to a channel (or reply in a thread); the actor must be a member."""
    require_member(s, actor, channel)
    require_active(channel)
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
    require_active(message.channel)
    update_row(s, message, text=_clean_text(text), edited_at=now(s))
    s.execute(Mention.__table__.delete().where(Mention.message_id == message.id))
    _record_mentions(s, message)
    return message


def delete_message(s: Session, actor: Person, message: Message) -> None:
    """Mark the actor's own message deleted (the row stays, hidden from everyone)."""
    if message.user_id != actor.id:
        raise Forbidden("you can only delete your own messages", code="cant_delete_message")
    require_active(message.channel)
    update_row(s, message, is_deleted=True)


def add_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction:
    emoji = _clean_emoji(emoji)
    require_member(s, actor, message.channel)
    require_active(message.channel)
    # One statement: the unique (message, person, emoji) says whether it is already there,
    # also when a concurrent request of the same person added it a moment ago.
    reaction = insert_new(s, Reaction, message_id=message.id, person_id=actor.id, emoji=emoji)
    if reaction is None:
        raise Conflict(f"you already reacted with :{emoji}:", code="already_reacted")
    return reaction


def _own_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction | None:
    return s.scalars(q.REACTION, {"m": message.id, "p": actor.id, "e": emoji}).first()


def remove_reaction(s: Session, actor: Person, message: Message, emoji: str) -> None:
    emoji = _clean_emoji(emoji)
    require_active(message.channel)
    reaction = _own_reaction(s, actor, message, emoji)
    if reaction is None:
        raise NotFound(f"you have no :{emoji}: reaction on this message", code="no_reaction")
    delete_row(s, reaction)


def pin_message(s: Session, actor: Person, message: Message) -> Pin:
    require_member(s, actor, message.channel)
    require_active(message.channel)
    if message.thread_parent_id is not None:
        raise Invalid("only top-level messages can be pinned")
    pin = insert_new(
        s,
        Pin,
        channel_id=message.channel_id,
        message_id=message.id,
        pinned_by_id=actor.id,
        pinned_at=now(s),
    )
    if pin is None:
        raise Conflict("message is already pinned", code="already_pinned")
    return pin


def unpin_message(s: Session, actor: Person, message: Message) -> None:
    require_member(s, actor, message.channel)
    require_active(message.channel)
    pin = s.scalars(q.PIN_OF, {"m": message.id}).first()
    if pin is None:
        raise NotFound("message is not pinned", code="no_pin")
    delete_row(s, pin)


def set_status(s: Session, actor: Person, text: str, emoji: str = "") -> Status:
    text = check_length(text.strip(), 100, "status text")
    emoji = _clean_emoji(emoji) if emoji else ""
    status = get_status(s, actor)
    if status is None:
        status = insert_new(s, Status, person_id=actor.id, text=text, emoji=emoji)
        if status is not None:
            return status
        status = get_status(s, actor)  # set by a concurrent request meanwhile: overwrite it
        assert status is not None
    update_row(s, status, text=text, emoji=emoji)
    return status


def mark_read(s: Session, actor: Person, channel: Channel) -> None:
    newest = read(s, q.NEWEST, {"c": channel.id}).scalar()
    if newest:
        _mark_read(s, actor, channel, newest)


def _clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise Invalid("message text is empty", code="no_text")
    return check_length(text, MAX_TEXT, "message text", code="msg_too_long")


def _clean_emoji(emoji: str) -> str:
    name = emoji.strip().strip(":").lower()
    if not EMOJI_RE.match(name):
        raise Invalid(f"invalid emoji name {emoji!r}", code="invalid_name")
    return name


def _mark_read(s: Session, actor: Person, channel: Channel, message_id: int) -> None:
    row = read(s, q.READ_MARK, {"c": channel.id, "p": actor.id}).first()
    if row is not None and row.last_read_id < message_id:
        update_by_id(s, Membership, row.id, last_read_id=message_id)


def _record_mentions(s: Session, msg: Message) -> None:
    handles = set(MENTION_RE.findall(msg.text))
    if not handles:
        return
    for person_id in sorted(set(person_ids(s, handles))):
        insert_new(s, Mention, message_id=msg.id, person_id=person_id)
