"""Chat operations: the only code that changes chat state.

Every function takes the session first and the acting person second, enforces
what that person may see and do, never commits (the caller owns the session)
and raises `officegym.errors` with a message an agent or a person can act on.

This module holds messages (history, posting, edits, deletes, scheduled posts
released on the simulated clock), statuses and read markers; it re-exports the
rest so that callers import one module: `access` (look-ups and the rules: who may
see and do what), `reads` (lists, threads, pins), `search` (Slack's search syntax,
parsed by `search_syntax`), `reactions` (reactions and
pins), `channels` (channels,
invitations, direct messages), `files` (two-step uploads), `extras` (bookmarks,
scheduled and ephemeral messages) and `events` (apps and their Events API
subscriptions). Message text may use Slack's markup (`markup`). The statements
they run are built once in `queries`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.org.service import person_ids
from officegym.apps.slack import events
from officegym.apps.slack import queries as q
from officegym.apps.slack.access import (
    EMOJI_RE,
    SLACK_ID_RE,
    Someone,
    can_read,
    check_length,
    clamp,
    clean_emoji,
    get_channel,
    get_message,
    is_member,
    membership,
    pick_people,
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
    kick,
    leave_channel,
    open_dm,
    rename_channel,
    set_purpose,
    set_topic,
    unarchive_channel,
)
from officegym.apps.slack.extras import (
    add_bookmark,
    cancel_scheduled,
    edit_bookmark,
    ephemerals_for,
    get_bookmark,
    get_scheduled,
    list_bookmarks,
    list_scheduled,
    post_ephemeral,
    remove_bookmark,
    schedule_message,
)
from officegym.apps.slack.files import (
    complete_upload,
    delete_file,
    file_message,
    files_of,
    get_file,
    list_files,
    reserve_upload,
    write_upload,
)
from officegym.apps.slack.markup import MENTION_RE, to_stored
from officegym.apps.slack.models import (
    Channel,
    Membership,
    Mention,
    Message,
    ScheduledMessage,
    Status,
)
from officegym.apps.slack.reactions import (
    add_reaction,
    pin_message,
    remove_reaction,
    unpin_message,
)
from officegym.apps.slack.reads import (
    get_status,
    list_channels,
    list_conversations_of,
    member_ids,
    members,
    pins,
    reactions_by_person,
    reactions_for,
    replies,
    reply_counts,
    unread_counts,
)
from officegym.apps.slack.search import count_matches, search_messages
from officegym.clock import now
from officegym.db import ID_MAX, get, id_param, read
from officegym.errors import Forbidden, Invalid, NotFound
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
    "add_bookmark",
    "add_reaction",
    "archive_channel",
    "can_read",
    "cancel_scheduled",
    "complete_upload",
    "count_matches",
    "create_channel",
    "delete_file",
    "delete_message",
    "edit_bookmark",
    "edit_message",
    "ephemerals_for",
    "file_message",
    "files_of",
    "find_dm",
    "get_bookmark",
    "get_channel",
    "get_file",
    "get_message",
    "get_scheduled",
    "get_status",
    "history",
    "invite",
    "is_member",
    "join_channel",
    "kick",
    "leave_channel",
    "list_bookmarks",
    "list_channels",
    "list_conversations_of",
    "list_files",
    "list_scheduled",
    "mark_read",
    "member_ids",
    "members",
    "membership",
    "open_dm",
    "pick_people",
    "pin_message",
    "pins",
    "post_ephemeral",
    "post_message",
    "reactions_by_person",
    "reactions_for",
    "release_due",
    "remove_bookmark",
    "remove_reaction",
    "rename_channel",
    "replies",
    "reply_counts",
    "reserve_upload",
    "resolve_people",
    "schedule_message",
    "search_messages",
    "set_purpose",
    "set_status",
    "set_topic",
    "unarchive_channel",
    "unpin_message",
    "unread_counts",
    "write_upload",
]

MAX_TEXT = 4000
DELETED_TEXT = "This message was deleted."  # what readers see of a deleted thread parent
Point = tuple[dt.datetime, int]  # a place in message order: (created_at, row id)
_RELEASING = "slack_releasing"  # session.info flag: scheduled messages are being posted


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
    (created_at, id) point; ``(t, 0)`` lies before every message of time ``t``,
    ``(t, ID_MAX + 1)`` after them. Ids of any size are taken: `db.id_param` holds what is
    bound within the database's integer (PostgreSQL refuses a larger one)."""
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    release_due(s)
    through = id_param(before_id - 1) if before_id else ID_MAX
    params = {"c": channel.id, "through": through, "n": clamp(limit, 1000)}
    window = newer_than is not None or older_than is not None
    if window:
        (t_lo, id_lo), (t_hi, id_hi) = newer_than or q.EARLIEST, older_than or q.LATEST
        params |= {"t_lo": t_lo, "id_from": id_param(id_lo + 1)}
        params |= {"t_hi": t_hi, "id_through": id_param(id_hi - 1)}
    msgs = list(s.scalars(q.HISTORY_BY[authors, window], params))
    if mark_read and msgs and before_id is None:
        _mark_read(s, actor, channel, msgs[0].id)
    return msgs


def post_message(
    s: Session,
    actor: Person,
    channel: Channel,
    text: str,
    *,
    thread_parent: Message | None = None,
    broadcast: bool = False,
    markup: bool = True,
    at: dt.datetime | None = None,
) -> Message:
    """Post to a channel (or reply in a thread; `broadcast` shows the reply in the channel
    too); the actor must be a member. Slack markup in `text` (``<@U…>``, ``<#C…>``,
    ``<!here>``) is read as ``@handle``, ``#name``, ``@here`` unless `markup` is False (the
    caller converted it already). `at` dates a scheduled message at its time."""
    release_due(s)
    require_member(s, actor, channel)
    require_active(channel)
    text = _clean_text(to_stored(s, text) if markup else text)
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
        created_at=at or now(s),
        thread_parent_id=thread_parent.id if thread_parent else None,
        broadcast=broadcast and thread_parent is not None,
    )
    _record_mentions(s, msg)
    events.message_posted(s, msg, channel)
    return msg


def release_due(s: Session) -> int:
    """Post every scheduled message whose time has come on the world's clock (each dated
    at its time, as its author); how many. Every read and post of messages calls it first,
    so a scheduled message is in place before anything that comes after its time."""
    clock = s.info.get("clock")
    if clock is None or s.info.get(_RELEASING):
        return 0
    if read(s, q.ANY_DUE, {"t": clock.peek()}).first() is None:
        return 0
    released = 0
    s.info[_RELEASING] = True
    try:
        while (due := s.scalars(q.DUE, {"t": clock.peek()}).first()) is not None:
            _release(s, due)
            released += 1
    finally:
        s.info.pop(_RELEASING, None)
    return released


def _release(s: Session, due: ScheduledMessage) -> None:
    """Post one scheduled message; one its author may no longer post is dropped (as Slack
    drops it when the author left the channel or it was archived)."""
    author = get(s, Person, due.user_id)
    channel = get(s, Channel, due.channel_id)
    parent = get(s, Message, due.thread_parent_id) if due.thread_parent_id else None
    try:
        msg = post_message(s, author, channel, due.text, thread_parent=parent, at=due.post_at,
                           markup=False)  # fmt: skip
    except (Forbidden, Invalid, NotFound):
        delete_row(s, due)
        return
    update_row(s, due, message_id=msg.id)


def edit_message(s: Session, actor: Person, message: Message, text: str) -> Message:
    if message.user_id != actor.id:
        raise Forbidden("you can only edit your own messages", code="cant_update_message")
    require_active(message.channel)
    update_row(s, message, text=_clean_text(to_stored(s, text)), edited_at=now(s))
    s.execute(Mention.__table__.delete().where(Mention.message_id == message.id))
    _record_mentions(s, message)
    return message


def delete_message(s: Session, actor: Person, message: Message) -> None:
    """Mark the actor's own message deleted (the row stays, hidden from everyone)."""
    if message.user_id != actor.id:
        raise Forbidden("you can only delete your own messages", code="cant_delete_message")
    require_active(message.channel)
    update_row(s, message, is_deleted=True)


def set_status(s: Session, actor: Person, text: str, emoji: str = "") -> Status:
    text = check_length(text.strip(), 100, "status text")
    emoji = clean_emoji(emoji) if emoji else ""
    status = get_status(s, actor)
    if status is None:
        status = insert_new(s, Status, person_id=actor.id, text=text, emoji=emoji)
        if status is not None:
            return status
        status = get_status(s, actor)  # set by a concurrent request meanwhile: overwrite it
        assert status is not None
    update_row(s, status, text=text, emoji=emoji)
    return status


def mark_read(s: Session, actor: Person, channel: Channel, upto: Message | None = None) -> None:
    """Move the actor's read marker to `upto` (default: the newest message), forward or
    back (conversations.mark); not a change graders count."""
    require_member(s, actor, channel)
    if upto is None:
        newest = read(s, q.NEWEST, {"c": channel.id}).scalar()
        if newest:
            _mark_read(s, actor, channel, newest)
        return
    row = read(s, q.READ_MARK, {"c": channel.id, "p": actor.id}).first()
    if row is not None:
        update_by_id(s, Membership, row.id, last_read_id=upto.id)


def _clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise Invalid("message text is empty", code="no_text")
    return check_length(text, MAX_TEXT, "message text", code="msg_too_long")


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
