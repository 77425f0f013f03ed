"""Conversation extras: bookmarks, scheduled messages and ephemeral messages.

Bookmarks are links saved at the top of a channel (members add, edit and remove them).
A scheduled message waits for its time on the world's simulated clock; the service
posts it then (`service.release_due`). An ephemeral message is shown to one member
of a conversation only, and is not part of its history.
"""

from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.access import (
    Someone,
    can_read,
    check_length,
    is_member,
    require_active,
    require_member,
)
from officegym.apps.slack.markup import to_stored
from officegym.apps.slack.models import Bookmark, Channel, Ephemeral, Message, ScheduledMessage
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Invalid, NotFound
from officegym.writes import delete_row, insert_new, insert_row, update_row

__all__ = [
    "add_bookmark",
    "cancel_scheduled",
    "edit_bookmark",
    "ephemerals_for",
    "get_bookmark",
    "get_scheduled",
    "list_bookmarks",
    "list_scheduled",
    "post_ephemeral",
    "remove_bookmark",
    "schedule_message",
]

LINK_RE = re.compile(r"^(https?|mailto):\S+$")
NOT_IN = "user_not_in_channel"
MAX_AHEAD = dt.timedelta(days=120)  # Slack schedules up to 120 days ahead


# ---------------------------------------------------------------- bookmarks


def add_bookmark(
    s: Session, actor: Person, channel: Channel, *, title: str, link: str, emoji: str = ""
) -> Bookmark:
    """Save a link at the top of a conversation the actor belongs to."""
    require_member(s, actor, channel)
    require_active(channel)
    title, link = _bookmark_fields(title, link)
    when = now(s)
    mark = insert_new(s, Bookmark, channel_id=channel.id, title=title, link=link, emoji=emoji,
                      created_by_id=actor.id, created_at=when, updated_at=when)  # fmt: skip
    if mark is None:
        raise Conflict("this link is already bookmarked here", code="already_exists")
    return mark


def _bookmark_fields(title: str, link: str) -> tuple[str, str]:
    title, link = title.strip(), link.strip()
    if not title:
        raise Invalid("a bookmark needs a title", code="invalid_title")
    if not LINK_RE.match(link):
        raise Invalid(f"{link!r} is not a link (http, https or mailto)", code="invalid_link")
    return check_length(title, 200, "title"), check_length(link, 2000, "link")


def get_bookmark(s: Session, actor: Person, channel: Channel, bookmark_id: int) -> Bookmark:
    mark = get(s, Bookmark, bookmark_id)
    if mark is None or mark.channel_id != channel.id or not can_read(s, actor, channel):
        raise NotFound(f"no bookmark {bookmark_id} here", code="not_found")
    return mark


def edit_bookmark(
    s: Session, actor: Person, mark: Bookmark, *, title: str | None, link: str | None
) -> Bookmark:
    channel = get(s, Channel, mark.channel_id)
    assert channel is not None
    require_member(s, actor, channel)
    require_active(channel)
    new_title, new_link = _bookmark_fields(title or mark.title, link or mark.link)
    update_row(s, mark, title=new_title, link=new_link, updated_at=now(s))
    return mark


def remove_bookmark(s: Session, actor: Person, mark: Bookmark) -> None:
    channel = get(s, Channel, mark.channel_id)
    assert channel is not None
    require_member(s, actor, channel)
    require_active(channel)
    delete_row(s, mark)


def list_bookmarks(s: Session, actor: Person, channel: Channel) -> list[Bookmark]:
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    stmt = select(Bookmark).where(Bookmark.channel_id == channel.id).order_by(Bookmark.id)
    return list(s.scalars(stmt))


# ---------------------------------------------------------------- scheduled messages


def schedule_message(
    s: Session,
    actor: Person,
    channel: Channel,
    text: str,
    *,
    post_at: dt.datetime,
    thread_parent: Message | None = None,
) -> ScheduledMessage:
    """Schedule a post for `post_at` on the world's clock (later than now, within 120 days)."""
    require_member(s, actor, channel)
    require_active(channel)
    current = now(s)
    if post_at <= current:
        raise Invalid(f"post_at is in the past: the world's time is {current:%Y-%m-%d %H:%M:%S} "
                      "UTC", code="time_in_past")  # fmt: skip
    if post_at > current + MAX_AHEAD:
        raise Invalid(f"post_at is more than 120 days after the world's time "
                      f"({current:%Y-%m-%d %H:%M:%S} UTC)", code="time_too_far")  # fmt: skip
    text = check_length(to_stored(s, text).strip(), 4000, "message text", code="msg_too_long")
    if not text:
        raise Invalid("message text is empty", code="no_text")
    if thread_parent is not None and thread_parent.channel_id != channel.id:
        raise NotFound("no such thread here", code="thread_not_found")
    return insert_row(s, ScheduledMessage, channel_id=channel.id, user_id=actor.id, text=text,
                      post_at=post_at, created_at=current,
                      thread_parent_id=thread_parent.id if thread_parent else None)  # fmt: skip


def list_scheduled(
    s: Session, actor: Person, channel: Channel | None = None
) -> list[ScheduledMessage]:
    """The actor's messages still waiting for their time, soonest first."""
    stmt = select(ScheduledMessage).where(
        ScheduledMessage.user_id == actor.id, ScheduledMessage.message_id.is_(None)
    )
    if channel is not None:
        stmt = stmt.where(ScheduledMessage.channel_id == channel.id)
    return list(s.scalars(stmt.order_by(ScheduledMessage.post_at, ScheduledMessage.id)))


def get_scheduled(s: Session, actor: Person, scheduled_id: int) -> ScheduledMessage:
    found = get(s, ScheduledMessage, scheduled_id)
    if found is None or found.user_id != actor.id or found.message_id is not None:
        raise NotFound("no such scheduled message", code="invalid_scheduled_message_id")
    return found


def cancel_scheduled(s: Session, actor: Person, scheduled: ScheduledMessage) -> None:
    if scheduled.user_id != actor.id:
        raise NotFound("no such scheduled message", code="invalid_scheduled_message_id")
    delete_row(s, scheduled)


# ---------------------------------------------------------------- ephemeral messages


def post_ephemeral(
    s: Session, actor: Person, channel: Channel, recipient: Someone, text: str
) -> Ephemeral:
    """Show `text` to one member of a conversation the actor belongs to."""
    require_member(s, actor, channel)
    require_active(channel)
    if not is_member(s, recipient, channel):
        raise Invalid(f"@{recipient.handle} is not in this conversation", code=NOT_IN)
    text = check_length(to_stored(s, text).strip(), 4000, "message text", code="msg_too_long")
    if not text:
        raise Invalid("message text is empty", code="no_text")
    return insert_row(s, Ephemeral, channel_id=channel.id, user_id=actor.id,
                      recipient_id=recipient.id, text=text, created_at=now(s))  # fmt: skip


def ephemerals_for(s: Session, actor: Person, channel: Channel) -> list[Ephemeral]:
    """The ephemeral messages shown to the actor in a conversation, oldest first."""
    stmt = select(Ephemeral).where(
        Ephemeral.channel_id == channel.id, Ephemeral.recipient_id == actor.id
    )
    return list(s.scalars(stmt.order_by(Ephemeral.id)))
