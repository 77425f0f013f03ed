"""The chat.* methods of the Slack Web API subset: posting (threads, reply_broadcast,
blocks and attachments), editing, deleting, permalinks, ephemeral and scheduled
messages. Text arrives in Slack's markup and is stored as people read it
(`markup.from_wire`); a post with only `blocks` or `attachments` takes its text
from them, as Slack's fallback text does."""

from __future__ import annotations

from typing import Any

from flask import g, url_for

from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import (
    Params,
    find_channel,
    find_message,
    find_person,
    is_user_id,
    method,
    page,
    row_id,
    unix_time,
    user_id,
)
from officegym.apps.slack.api_views import messages, scheduled_obj, seconds
from officegym.apps.slack.markup import from_wire
from officegym.apps.slack.models import Channel
from officegym.errors import Invalid

__all__ = ["blocks_text"]


def _post_target(p: Params) -> Channel:
    """The conversation to post in; a user id (``U...``) means the DM with that person."""
    ref = p.text("channel", missing="channel_not_found")
    if is_user_id(ref):
        return chat.open_dm(g.db, g.actor, [find_person(ref)])
    return chat.get_channel(g.db, g.actor, ref)


def blocks_text(blocks: Any, attachments: Any) -> str:
    """The readable text of Block Kit `blocks` and legacy `attachments` (their fallback)."""
    parts: list[str] = []
    _collect(blocks, parts)
    for a in attachments if isinstance(attachments, list) else []:
        if isinstance(a, dict):
            text = a.get("fallback") or a.get("text") or a.get("pretext") or a.get("title")
            if isinstance(text, str) and text.strip():
                parts.append(text.strip())
            elif "blocks" in a:
                _collect(a["blocks"], parts)
    return "\n".join(parts)


def _collect(node: Any, parts: list[str], depth: int = 0) -> None:
    """Texts of a Block Kit tree: every ``text`` string, and ``{"text": {"text": ...}}``."""
    if depth > 20:
        return
    if isinstance(node, list):
        for item in node[:100]:
            _collect(item, parts, depth + 1)
    elif isinstance(node, dict):
        text = node.get("text")
        if isinstance(text, str) and node.get("type") in ("plain_text", "mrkdwn", "text"):
            if text.strip():
                parts.append(text.strip())
        elif text is not None:
            _collect(text, parts, depth + 1)
        for key in ("fields", "elements"):
            if key in node:
                _collect(node[key], parts, depth + 1)


def _text(p: Params) -> str:
    """The message text: `text`, else the text of `blocks` / `attachments`."""
    text = p.text("text")
    if not text:
        text = blocks_text(p.json("blocks"), p.json("attachments"))
    if not text.strip():
        raise Invalid("a message needs text, blocks or attachments", code="no_text")
    return from_wire(g.db, text)


@method("chat.postMessage", write=True)
def chat_post_message(p: Params) -> dict[str, Any]:
    c = _post_target(p)
    parent = find_message(p, c, "thread_ts") if p.text("thread_ts") else None
    msg = chat.post_message(g.db, g.actor, c, _text(p), thread_parent=parent,
                            broadcast=p.flag("reply_broadcast"), markup=False)  # fmt: skip
    return {"channel": c.slack_id, "ts": msg.ts, "message": messages([msg])[0]}


@method("chat.update", write=True)
def chat_update(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    msg = chat.edit_message(g.db, g.actor, find_message(p, c), _text(p))
    obj = messages([msg])[0]
    return {"channel": c.slack_id, "ts": msg.ts, "text": obj["text"], "message": obj}


@method("chat.delete", write=True)
def chat_delete(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    msg = find_message(p, c)
    chat.delete_message(g.db, g.actor, msg)
    return {"channel": c.slack_id, "ts": msg.ts}


@method("chat.getPermalink")
def chat_get_permalink(p: Params) -> dict[str, Any]:
    """The message's page in the web UI (its thread, anchored at it)."""
    c = find_channel(p)
    msg = find_message(p, c, "message_ts")
    parent = msg.thread_parent_id or msg.id
    link = url_for("slack.thread", message_id=parent, _anchor=f"msg-{msg.id}", _external=True)
    return {"channel": c.slack_id, "permalink": link}


@method("chat.postEphemeral", write=True)
def chat_post_ephemeral(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    recipient = find_person(p.text("user", missing="user_not_found"))
    shown = chat.post_ephemeral(g.db, g.actor, c, recipient, _text(p))
    return {"message_ts": f"{seconds(shown.created_at)}.{shown.id:06d}"}


@method("chat.scheduleMessage", write=True)
def chat_schedule_message(p: Params) -> dict[str, Any]:
    """Post later, at `post_at` (a Unix time) on the world's simulated clock."""
    c = _post_target(p)
    post_at = unix_time(p, "post_at", missing="invalid_time")
    parent = find_message(p, c, "thread_ts") if p.text("thread_ts") else None
    text = _text(p)
    waiting = chat.schedule_message(g.db, g.actor, c, text, post_at=post_at, thread_parent=parent)
    obj = {"type": "message", "text": scheduled_obj(waiting)["text"], "user": user_id(g.actor.id)}
    return {"channel": c.slack_id, "scheduled_message_id": f"Q{waiting.id:07d}",
            "post_at": seconds(waiting.post_at), "message": obj}  # fmt: skip


@method("chat.scheduledMessages.list")
def chat_scheduled_messages_list(p: Params) -> dict[str, Any]:
    """The caller's messages still waiting, soonest first, paged by cursor."""
    c = find_channel(p) if p.text("channel") else None
    waiting = chat.list_scheduled(g.db, g.actor, c)
    chunk, meta = page(waiting, p, 100, 1000)
    return {"scheduled_messages": [scheduled_obj(m) for m in chunk], "response_metadata": meta}


@method("chat.deleteScheduledMessage", write=True)
def chat_delete_scheduled_message(p: Params) -> dict[str, Any]:
    find_channel(p)
    ref = p.text("scheduled_message_id", missing="invalid_scheduled_message_id")
    row = row_id(ref, "Q", "scheduled message", "invalid_scheduled_message_id")
    chat.cancel_scheduled(g.db, g.actor, chat.get_scheduled(g.db, g.actor, row))
    return {}


@method("chat.meMessage", write=True)
def chat_me_message(p: Params) -> dict[str, Any]:
    """A /me message: posted as italic text, as Slack shows it."""
    c = _post_target(p)
    msg = chat.post_message(g.db, g.actor, c, f"_{_text(p)}_", markup=False)
    return {"channel": c.slack_id, "ts": msg.ts}
