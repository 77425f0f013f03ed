"""Chat state. A conversation is a public or private channel, a DM or a group DM
(as in Slack's conversations API). Deleted and edited messages stay as rows a
grader can see."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from officegym.apps.org.models import Person
from officegym.db import CLOCK, DERIVED, Base, intpk

ChannelKind = Literal["public", "private", "dm", "mpdm"]


class Channel(Base):
    __tablename__ = "slack_channel"

    id: Mapped[intpk]
    name: Mapped[str | None] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    topic: Mapped[str] = mapped_column(String(250), default="")
    purpose: Mapped[str] = mapped_column(String(250), default="")
    is_archived: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    # DMs and group DMs: the members' sorted ids ("3,17"), one conversation per set of people.
    dm_key: Mapped[str | None] = mapped_column(String(80), unique=True)

    memberships: Mapped[list[Membership]] = relationship(viewonly=True, back_populates="channel")

    @property
    def slack_id(self) -> str:
        prefix = {"public": "C", "private": "G", "dm": "D", "mpdm": "G"}[self.kind]
        return f"{prefix}{self.id:07d}"


class Membership(Base):
    __tablename__ = "slack_membership"
    __table_args__ = (UniqueConstraint("channel_id", "person_id"),)

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    joined_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    # Id of the newest message this member has seen; moving it is not a change a grader counts.
    last_read_id: Mapped[int] = mapped_column(default=0, info={"ephemeral": True})

    channel: Mapped[Channel] = relationship(viewonly=True, back_populates="memberships")
    person: Mapped[Person] = relationship(viewonly=True)


class Message(Base):
    __tablename__ = "slack_message"

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    thread_parent_id: Mapped[int | None] = mapped_column(ForeignKey("slack_message.id"), index=True)
    edited_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)
    is_deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    # A thread reply also shown in the channel (Slack's reply_broadcast).
    broadcast: Mapped[bool] = mapped_column(Boolean, default=False)

    channel: Mapped[Channel] = relationship(viewonly=True)
    user: Mapped[Person] = relationship(viewonly=True)
    reactions: Mapped[list[Reaction]] = relationship(viewonly=True, back_populates="message")

    @property
    def ts(self) -> str:
        """Slack-style timestamp id: seconds of the post time, then the row id."""
        return f"{int(self.created_at.replace(tzinfo=dt.UTC).timestamp())}.{self.id:06d}"


class Reaction(Base):
    __tablename__ = "slack_reaction"
    __table_args__ = (UniqueConstraint("message_id", "person_id", "emoji"),)

    id: Mapped[intpk]
    message_id: Mapped[int] = mapped_column(ForeignKey("slack_message.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    emoji: Mapped[str] = mapped_column(String(60))

    message: Mapped[Message] = relationship(viewonly=True, back_populates="reactions")
    person: Mapped[Person] = relationship(viewonly=True)


class Pin(Base):
    __tablename__ = "slack_pin"

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("slack_message.id"), unique=True)
    pinned_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    pinned_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class Mention(Base):
    __tablename__ = "slack_mention"
    __table_args__ = (UniqueConstraint("message_id", "person_id"), DERIVED)

    id: Mapped[intpk]
    message_id: Mapped[int] = mapped_column(ForeignKey("slack_message.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)


class Status(Base):
    """A person's chat status (text + emoji), at most one row per person."""

    __tablename__ = "slack_status"

    id: Mapped[intpk]
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), unique=True)
    text: Mapped[str] = mapped_column(String(100), default="")
    emoji: Mapped[str] = mapped_column(String(60), default="")


class Ephemeral(Base):
    """A message only its recipient sees, in a conversation, once (chat.postEphemeral)."""

    __tablename__ = "slack_ephemeral"

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    recipient_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class ScheduledMessage(Base):
    """A message to post at `post_at` on the world's clock; `message_id` once posted."""

    __tablename__ = "slack_scheduled_message"

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    post_at: Mapped[dt.datetime] = mapped_column(DateTime(), index=True)
    thread_parent_id: Mapped[int | None] = mapped_column(ForeignKey("slack_message.id"))
    message_id: Mapped[int | None] = mapped_column(ForeignKey("slack_message.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class File(Base):
    """An uploaded file: its name, title, size and bytes (`content` holds the text of text
    files, for graders), shared in a conversation with a message once complete."""

    __tablename__ = "slack_file"

    id: Mapped[intpk]
    user_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    name: Mapped[str] = mapped_column(String(255))
    title: Mapped[str] = mapped_column(String(255), default="")
    mimetype: Mapped[str] = mapped_column(String(100), default="application/octet-stream")
    filetype: Mapped[str] = mapped_column(String(20), default="binary")
    size: Mapped[int] = mapped_column(Integer, default=0)
    data: Mapped[bytes | None] = mapped_column(LargeBinary)
    content: Mapped[str | None] = mapped_column(Text)
    channel_id: Mapped[int | None] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    message_id: Mapped[int | None] = mapped_column(ForeignKey("slack_message.id"), index=True)
    upload_key: Mapped[str] = mapped_column(String(64), default="", info={"free": "generated key"})
    is_complete: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class Bookmark(Base):
    """A link saved at the top of a conversation."""

    __tablename__ = "slack_bookmark"
    __table_args__ = (UniqueConstraint("channel_id", "link"),)

    id: Mapped[intpk]
    channel_id: Mapped[int] = mapped_column(ForeignKey("slack_channel.id"), index=True)
    title: Mapped[str] = mapped_column(String(200))
    link: Mapped[str] = mapped_column(String(2000))
    emoji: Mapped[str] = mapped_column(String(60), default="")
    created_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class App(Base):
    """A Slack app: its bot user (a person of the world), its tokens and its Events API
    subscription (the request URL and event types, events signed with `signing_secret`)."""

    __tablename__ = "slack_app"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(80))
    bot_user_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    created_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    bot_token: Mapped[str] = mapped_column(String(80), unique=True)
    signing_secret: Mapped[str] = mapped_column(String(64))
    verification_token: Mapped[str] = mapped_column(String(64))
    request_url: Mapped[str] = mapped_column(String(2000), default="")
    events: Mapped[str] = mapped_column(Text, default="")  # event types, comma-separated
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)

    @property
    def slack_id(self) -> str:
        return f"A{self.id:07d}"

    @property
    def event_types(self) -> list[str]:
        return [e for e in self.events.split(",") if e]
