"""View helpers of the chat pages: what the templates need, built only from service reads.

Keeps routes short: naming conversations (a DM is named by the other people),
the sidebar, and message rows with grouped reactions, reply counts and pins.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import g, render_template, url_for
from markupsafe import Markup
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, File, Message
from officegym.apps.slack.rendering import emojize, rich_text

PAGE_SIZE = 20

# Emoji names the pages offer (drawn as :name:, as Slack writes them in text).
REACTION_CHOICES = [
    "thumbsup",
    "heart",
    "tada",
    "eyes",
    "white_check_mark",
    "raised_hands",
    "joy",
    "pray",
    "rocket",
    "fire",
    "100",
]
STATUS_EMOJI_CHOICES = [
    "calendar",
    "palm_tree",
    "face_with_thermometer",
    "bus",
    "headphones",
    "house",
    "coffee",
]


@dataclass
class ReactionView:
    """One emoji on a message: how many people used it and whether the actor did."""

    emoji: str
    count: int = 0
    mine: bool = False
    names: list[str] = field(default_factory=list)


@dataclass
class MessageView:
    """A message row as the channel and thread pages draw it."""

    msg: Message
    reactions: list[ReactionView]
    reply_count: int
    pinned: bool
    own: bool
    files: list[File] = field(default_factory=list)


@dataclass
class SidebarItem:
    """A conversation link in the sidebar."""

    label: str
    url: str
    key: str
    unread: int
    active: bool
    private: bool = False


# ---------------------------------------------------------------- conversations


def channel_ref(channel: Channel) -> str:
    """The URL reference of a conversation: its name, or its Slack id for a DM."""
    return channel.name if channel.name else channel.slack_id


def channel_url(channel: Channel, **args: Any) -> str:
    return url_for("slack.channel", ref=channel_ref(channel), **args)


def others(s: Session, actor: Person, channel: Channel) -> list[Person]:
    """The members of a DM or group DM other than the actor."""
    return [p for p in chat.members(s, actor, channel) if p.id != actor.id]


def channel_label(s: Session, actor: Person, channel: Channel) -> str:
    """'#name' for channels; the other people's names for DMs."""
    if channel.name:
        return f"#{channel.name}"
    names = [p.name for p in others(s, actor, channel)]
    return ", ".join(names) or actor.name


def channel_key(s: Session, actor: Person, channel: Channel) -> str:
    """The entity part of a conversation's element id: its name, or the others' handles."""
    if channel.name:
        return channel.name
    return "-".join(sorted(p.handle for p in others(s, actor, channel))) or actor.handle


def sidebar(s: Session, actor: Person, current: Channel | None) -> dict[str, list[SidebarItem]]:
    """The actor's channels and DMs with unread counts (read after the page marked read)."""
    unread = chat.unread_counts(s, actor)
    current_id = current.id if current is not None else None

    def item(c: Channel) -> SidebarItem:
        return SidebarItem(
            label=channel_label(s, actor, c),
            url=channel_url(c),
            key=channel_key(s, actor, c),
            unread=unread.get(c.id, 0),
            active=c.id == current_id,
            private=c.kind == "private",
        )

    channels = chat.list_channels(s, actor, member_only=True)
    return {
        "channels": [item(c) for c in channels],
        "dms": [item(c) for c in chat.list_conversations_of(s, actor)],
    }


def render(template: str, *, current: Channel | None = None, **context: Any) -> str:
    """Render a chat page inside the chat layout (sidebar computed last)."""
    context.setdefault("channel", current)
    return render_template(
        template,
        sidebar=sidebar(g.db, g.actor, current),
        channel_url=channel_url,
        rich=_rich,
        emojize=emojize,
        **context,
    )


def _rich(text: str) -> Markup:
    """A message's text for the pages: emoji drawn, mentions linked (see `rendering`)."""
    people = {p.handle for p in org.profiles(g.db).values()}
    url = functools.partial(url_for, "slack.profile")
    return rich_text(text, people=people, me=g.actor.handle, profile_url=lambda h: url(handle=h))


# ---------------------------------------------------------------- messages


def message_views(
    s: Session, actor: Person, channel: Channel, msgs: Sequence[Message]
) -> list[MessageView]:
    """Rows for `msgs` with reactions grouped by emoji, reply counts and pin marks."""
    counts = chat.reply_counts(s, [m.id for m in msgs if m.thread_parent_id is None])
    pinned = {m.id for m in chat.pins(s, actor, channel)}
    files = chat.files_of(s, [m.id for m in msgs])
    return [
        MessageView(
            msg=m,
            reactions=group_reactions(m, actor),
            reply_count=counts.get(m.id, 0),
            pinned=m.id in pinned,
            own=m.user_id == actor.id,
            files=files.get(m.id, []),
        )
        for m in msgs
    ]


def group_reactions(msg: Message, actor: Person) -> list[ReactionView]:
    """A message's reactions, one entry per emoji in first-use order."""
    groups: dict[str, ReactionView] = {}
    for r in sorted(msg.reactions, key=lambda r: r.id):
        view = groups.setdefault(r.emoji, ReactionView(emoji=r.emoji))
        view.count += 1
        view.names.append(r.person.name)
        view.mine = view.mine or r.person_id == actor.id
    return list(groups.values())
