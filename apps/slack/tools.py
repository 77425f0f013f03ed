"""Chat tools for agents: each is a documented, typed wrapper over the service.

Messages are referred to by their numeric `message_id` (shown in every listing),
channels by name (``general`` or ``#general``), people by handle (``@jdoe``),
email or full name.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.tools import Ref, ToolContext, tool

ChannelRef = Annotated[
    str,
    Field(description="Channel name such as 'general' or '#general'."),
    Ref("slack_channel", ("name",)),
]
MessageId = Annotated[
    int, Field(description="Numeric id of the message, as shown in listings."), Ref("slack_message")
]
Text = Annotated[str, Field(description="Message text; mention people with @handle.")]
Limit = Annotated[int, Field(description="How many items to return (1-100).", ge=1, le=100)]
PersonRef = Annotated[
    str,
    Field(description="A person's handle (e.g. 'jdoe'), email or full name."),
    Ref("org_person", ("handle", "email", "name")),
]
Emoji = Annotated[str, Field(description="Emoji name without colons, e.g. 'thumbsup' or 'eyes'.")]


def _channel_view(c: Channel) -> dict[str, Any]:
    return {
        "name": c.name,
        "private": c.kind != "public",
        "topic": c.topic,
        "purpose": c.purpose,
        "archived": c.is_archived,
    }


def _messages_view(ctx: ToolContext, msgs: list[Message]) -> list[dict[str, Any]]:
    ids = [m.id for m in msgs]
    counts = chat.reply_counts(ctx.session, ids)
    reactions = chat.reactions_for(ctx.session, ids)
    out = []
    for m in msgs:
        author = org.profile(ctx.session, m.user_id)
        view: dict[str, Any] = {
            "message_id": m.id,
            "author": author.handle,
            "author_name": author.name,
            "time": m.created_at.isoformat(sep=" "),
            "text": m.text,
        }
        if m.is_deleted:  # a thread's deleted parent: its place, not its words
            view |= {"author": "", "author_name": "", "text": chat.DELETED_TEXT, "deleted": True}
        if m.edited_at is not None:
            view["edited"] = True
        if m.thread_parent_id is None and counts.get(m.id):
            view["reply_count"] = counts[m.id]
        if m.id in reactions:
            view["reactions"] = {e: len(h) for e, h in reactions[m.id].items()}
        out.append(view)
    return out


def _where(m: Message) -> str:
    c = m.channel
    if c.name:
        return f"#{c.name}"
    return "direct message"


def _person_view(s: Session, person_id: int) -> dict[str, Any]:
    p = org.profile(s, person_id)
    return {"handle": p.handle, "name": p.name, "title": p.title, "team": p.team}


# ---------------------------------------------------------------- reading


@tool("read")
def slack_list_channels(
    ctx: ToolContext,
    *,
    query: Annotated[
        str | None, Field(description="Only channels whose name or topic contains this.")
    ] = None,
    member_only: Annotated[bool, Field(description="Only channels you are a member of.")] = False,
    include_archived: Annotated[bool, Field(description="Include archived channels.")] = False,
) -> list[dict[str, Any]]:
    """List the channels you can see: every public channel plus the private ones you belong to."""
    channels = chat.list_channels(
        ctx.session,
        ctx.actor,
        query=query,
        member_only=member_only,
        include_archived=include_archived,
    )
    return [_channel_view(c) for c in channels]


@tool("read")
def slack_get_channel_info(ctx: ToolContext, *, channel: ChannelRef) -> dict[str, Any]:
    """Show a channel's topic, purpose, privacy, archive state, members and whether you are one."""
    s, me = ctx.session, ctx.actor
    c = chat.get_channel(s, me, channel)
    view = _channel_view(c)
    view["members"] = [org.profile(s, pid).handle for pid in chat.member_ids(s, me, c)]
    view["you_are_member"] = me.handle in view["members"]
    return view


@tool("read")
def slack_read_channel(
    ctx: ToolContext,
    *,
    channel: ChannelRef,
    limit: Limit = 20,
    before_message_id: Annotated[
        int | None, Field(description="Page back: only messages older than this id.")
    ] = None,
) -> dict[str, Any]:
    """Read a channel's latest top-level messages, newest first, with reply counts and reactions."""
    s, me = ctx.session, ctx.actor
    c = chat.get_channel(s, me, channel)
    msgs = chat.history(s, me, c, limit=limit, before_id=before_message_id, authors=False)
    return {"channel": c.name, "messages": _messages_view(ctx, msgs)}


@tool("read")
def slack_read_thread(ctx: ToolContext, *, message_id: MessageId) -> dict[str, Any]:
    """Read a thread: the parent message and all its replies, oldest first."""
    s, me = ctx.session, ctx.actor
    msg = chat.get_message(s, me, message_id)
    parent_id = msg.thread_parent_id
    parent = chat.get_message(s, me, parent_id, include_deleted=True) if parent_id else msg
    return {
        "where": _where(parent),
        "parent": _messages_view(ctx, [parent])[0],
        "replies": _messages_view(ctx, chat.replies(s, me, parent)),
    }


@tool("read")
def slack_search_messages(
    ctx: ToolContext,
    *,
    query: Annotated[
        str,
        Field(
            description="Words that must all appear in the message. Slack's search syntax "
            'works: "exact phrase", from:@handle, in:#channel (in:@handle for a DM), '
            "before:/after:/on:YYYY-MM-DD, during:YYYY-MM, has:link, has:pin, has:reaction."
        ),
    ],
    channel: Annotated[str | None, Field(description="Only search this channel.")] = None,
    author: Annotated[str | None, Field(description="Only messages by this person.")] = None,
    limit: Limit = 20,
) -> list[dict[str, Any]]:
    """Search messages you can read (public channels and your conversations), newest first."""
    s, me = ctx.session, ctx.actor
    where = chat.get_channel(s, me, channel) if channel else None
    who = org.profile(s, org.find_person_id(s, author)) if author else None
    msgs = chat.search_messages(s, me, query=query, channel=where, author=who, limit=limit)
    views = _messages_view(ctx, msgs)
    for view, m in zip(views, msgs, strict=True):
        view["where"] = _where(m)
        if m.thread_parent_id:
            view["thread_parent_id"] = m.thread_parent_id
    return views


@tool("read")
def slack_list_pins(ctx: ToolContext, *, channel: ChannelRef) -> list[dict[str, Any]]:
    """List the pinned messages of a channel."""
    s, me = ctx.session, ctx.actor
    return _messages_view(ctx, chat.pins(s, me, chat.get_channel(s, me, channel)))


@tool("read")
def slack_list_people(
    ctx: ToolContext,
    *,
    query: Annotated[
        str | None, Field(description="Part of a name, handle, title or email.")
    ] = None,
    team: Annotated[
        str | None, Field(description="Only people in this team (name or slug).")
    ] = None,
    limit: Limit = 50,
) -> list[dict[str, Any]]:
    """Look people up in the company directory."""
    s = ctx.session
    return [_person_view(s, pid) for pid in org.people_ids(s, query=query, team=team, limit=limit)]


@tool("read")
def slack_get_person(ctx: ToolContext, *, person: PersonRef) -> dict[str, Any]:
    """Show a person's profile: title, team, manager, email, timezone and chat status."""
    s = ctx.session
    p = org.profile(s, org.find_person_id(s, person))
    status = chat.get_status(s, p)
    view = _person_view(s, p.id)
    view.update(
        email=p.email,
        timezone=p.timezone,
        manager=p.manager,
        status={"text": status.text, "emoji": status.emoji} if status and status.text else None,
    )
    return view


@tool("read")
def slack_list_dms(ctx: ToolContext) -> list[dict[str, Any]]:
    """List your direct and group conversations with the people in each."""
    s, me = ctx.session, ctx.actor
    out = []
    for c in chat.list_conversations_of(s, me):
        others = [p.handle for p in chat.members(s, me, c) if p.id != me.id]
        out.append({"with": others, "group": c.kind == "mpdm"})
    return out


@tool("read")
def slack_read_dm(
    ctx: ToolContext,
    *,
    people: Annotated[
        list[PersonRef],
        Field(description="The other people in the conversation.", min_length=1, max_length=8),
    ],
    limit: Limit = 20,
) -> dict[str, Any]:
    """Read your direct (or group) conversation with these people, newest first."""
    s, me = ctx.session, ctx.actor
    c = chat.find_dm(s, me, chat.resolve_people(s, people))
    msgs = chat.history(s, me, c, limit=limit, authors=False) if c is not None else []
    return {"with": people, "messages": _messages_view(ctx, msgs)}


# ---------------------------------------------------------------- writing


@tool("write")
def slack_post_message(ctx: ToolContext, *, channel: ChannelRef, text: Text) -> dict[str, Any]:
    """Post a new top-level message in a channel you are a member of."""
    s, me = ctx.session, ctx.actor
    msg = chat.post_message(s, me, chat.get_channel(s, me, channel), text)
    return {"ok": True, "message_id": msg.id, "channel": msg.channel.name}


@tool("write")
def slack_reply_in_thread(ctx: ToolContext, *, message_id: MessageId, text: Text) -> dict[str, Any]:
    """Reply in the thread of a message (replying to a reply goes to the same thread)."""
    s, me = ctx.session, ctx.actor
    parent = chat.get_message(s, me, message_id)
    msg = chat.post_message(s, me, parent.channel, text, thread_parent=parent)
    return {"ok": True, "message_id": msg.id, "thread_parent_id": msg.thread_parent_id}


@tool("write")
def slack_send_dm(
    ctx: ToolContext,
    *,
    people: Annotated[
        list[PersonRef],
        Field(
            description="Recipients: one person for a DM, 2-8 for a group DM.",
            min_length=1,
            max_length=8,
        ),
    ],
    text: Text,
) -> dict[str, Any]:
    """Send a direct message to one person, or a group message to several."""
    s, me = ctx.session, ctx.actor
    c = chat.open_dm(s, me, chat.resolve_people(s, people))
    msg = chat.post_message(s, me, c, text)
    return {"ok": True, "message_id": msg.id}


@tool("write")
def slack_add_reaction(ctx: ToolContext, *, message_id: MessageId, emoji: Emoji) -> dict[str, Any]:
    """React to a message with an emoji."""
    s, me = ctx.session, ctx.actor
    r = chat.add_reaction(s, me, chat.get_message(s, me, message_id), emoji)
    return {"ok": True, "message_id": message_id, "emoji": r.emoji}


@tool("write")
def slack_remove_reaction(
    ctx: ToolContext, *, message_id: MessageId, emoji: Emoji
) -> dict[str, Any]:
    """Remove one of your own emoji reactions from a message."""
    s, me = ctx.session, ctx.actor
    chat.remove_reaction(s, me, chat.get_message(s, me, message_id), emoji)
    return {"ok": True}


@tool("write")
def slack_edit_message(ctx: ToolContext, *, message_id: MessageId, text: Text) -> dict[str, Any]:
    """Replace the text of one of your own messages."""
    s, me = ctx.session, ctx.actor
    chat.edit_message(s, me, chat.get_message(s, me, message_id), text)
    return {"ok": True, "message_id": message_id}


@tool("write")
def slack_delete_message(ctx: ToolContext, *, message_id: MessageId) -> dict[str, Any]:
    """Delete one of your own messages."""
    s, me = ctx.session, ctx.actor
    chat.delete_message(s, me, chat.get_message(s, me, message_id))
    return {"ok": True}


@tool("write")
def slack_pin_message(ctx: ToolContext, *, message_id: MessageId) -> dict[str, Any]:
    """Pin a top-level message to its channel."""
    s, me = ctx.session, ctx.actor
    chat.pin_message(s, me, chat.get_message(s, me, message_id))
    return {"ok": True}


@tool("write")
def slack_unpin_message(ctx: ToolContext, *, message_id: MessageId) -> dict[str, Any]:
    """Unpin a pinned message."""
    s, me = ctx.session, ctx.actor
    chat.unpin_message(s, me, chat.get_message(s, me, message_id))
    return {"ok": True}


# Loading this module loads every chat tool: the channel and status tools (which use the
# types above) live in tools_channels.
from officegym.apps.slack import tools_channels  # noqa: E402,F401
