"""Chat tools for agents that manage channels and your status: create, invite, join,
leave, set a topic, archive, set status. Registered after the message tools of
`officegym.apps.slack.tools`, whose argument types they share."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from officegym.apps.slack import service as chat
from officegym.apps.slack.tools import ChannelRef, PersonRef
from officegym.tools import ToolContext, tool


@tool("write")
def slack_create_channel(
    ctx: ToolContext,
    *,
    name: Annotated[
        str, Field(description="New channel name: lowercase letters, digits, '-' or '_'.")
    ],
    private: Annotated[bool, Field(description="Make it private (invite-only).")] = False,
    topic: Annotated[str, Field(description="Optional channel topic.")] = "",
) -> dict[str, Any]:
    """Create a channel; you become its first member."""
    c = chat.create_channel(ctx.session, ctx.actor, name, private=private, topic=topic)
    return {"ok": True, "channel": c.name, "private": c.kind == "private"}


@tool("write")
def slack_invite_to_channel(
    ctx: ToolContext,
    *,
    channel: ChannelRef,
    people: Annotated[
        list[PersonRef], Field(description="People to add.", min_length=1, max_length=50)
    ],
) -> dict[str, Any]:
    """Add people to a channel you are a member of."""
    s, me = ctx.session, ctx.actor
    added = chat.invite(s, me, chat.get_channel(s, me, channel), chat.resolve_people(s, people))
    return {"ok": True, "added": [p.handle for p in added]}


@tool("write")
def slack_join_channel(ctx: ToolContext, *, channel: ChannelRef) -> dict[str, Any]:
    """Join a public channel."""
    s, me = ctx.session, ctx.actor
    chat.join_channel(s, me, chat.get_channel(s, me, channel))
    return {"ok": True}


@tool("write")
def slack_leave_channel(ctx: ToolContext, *, channel: ChannelRef) -> dict[str, Any]:
    """Leave a channel."""
    s, me = ctx.session, ctx.actor
    chat.leave_channel(s, me, chat.get_channel(s, me, channel))
    return {"ok": True}


@tool("write")
def slack_set_channel_topic(
    ctx: ToolContext,
    *,
    channel: ChannelRef,
    topic: Annotated[str, Field(description="The new topic (max 250 characters).")],
) -> dict[str, Any]:
    """Set the topic of a channel you are a member of."""
    s, me = ctx.session, ctx.actor
    chat.set_topic(s, me, chat.get_channel(s, me, channel), topic)
    return {"ok": True}


@tool("write")
def slack_archive_channel(ctx: ToolContext, *, channel: ChannelRef) -> dict[str, Any]:
    """Archive a channel you are a member of; it becomes read-only."""
    s, me = ctx.session, ctx.actor
    chat.archive_channel(s, me, chat.get_channel(s, me, channel))
    return {"ok": True}


@tool("write")
def slack_set_status(
    ctx: ToolContext,
    *,
    text: Annotated[str, Field(description="Status text, e.g. 'On vacation'; empty clears it.")],
    emoji: Annotated[str, Field(description="Optional status emoji name, e.g. 'palm_tree'.")] = "",
) -> dict[str, Any]:
    """Set your own chat status."""
    st = chat.set_status(ctx.session, ctx.actor, text, emoji)
    return {"ok": True, "status": {"text": st.text, "emoji": st.emoji}}
