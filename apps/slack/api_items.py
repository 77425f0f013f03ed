"""The reactions.*, pins.*, bookmarks.* and search.messages methods of the Slack Web API
subset: things attached to messages and conversations, and finding messages (with real
totals: every match is counted, not just the page)."""

from __future__ import annotations

import math
from typing import Any

from flask import g, url_for

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import (
    Params,
    find_channel,
    find_message,
    find_person,
    method,
    page,
    row_id,
)
from officegym.apps.slack.api_views import bookmark_obj, messages
from officegym.apps.slack.models import Channel, Message
from officegym.apps.slack.search_syntax import parse
from officegym.errors import Invalid


def _item(p: Params, key: str = "timestamp") -> Message:
    if not p.text("channel") or not p.text(key):
        raise Invalid("name a message by channel and timestamp", code="no_item_specified")
    return find_message(p, find_channel(p), key)


# ---------------------------------------------------------------- reactions


@method("reactions.add", write=True)
def reactions_add(p: Params) -> dict[str, Any]:
    chat.add_reaction(g.db, g.actor, _item(p), p.text("name", missing="invalid_name"))
    return {}


@method("reactions.remove", write=True)
def reactions_remove(p: Params) -> dict[str, Any]:
    chat.remove_reaction(g.db, g.actor, _item(p), p.text("name", missing="invalid_name"))
    return {}


@method("reactions.get")
def reactions_get(p: Params) -> dict[str, Any]:
    """A message with its reactions (``full`` lists every reacting user, as always here)."""
    msg = _item(p)
    return {"type": "message", "channel": msg.channel.slack_id, "message": messages([msg])[0]}


@method("reactions.list")
def reactions_list(p: Params) -> dict[str, Any]:
    """Messages a person (the caller by default) reacted to, newest first, by cursor."""
    who = find_person(p.text("user")) if p.text("user") else g.actor
    found = chat.reactions_by_person(g.db, g.actor, who, limit=1000)
    seen: dict[int, Message] = {}
    for msg, _ in found:
        seen.setdefault(msg.id, msg)
    chunk, meta = page(list(seen.values()), p, 100, 1000)
    items = [
        {"type": "message", "channel": m.channel.slack_id, "message": obj}
        for m, obj in zip(chunk, messages(chunk), strict=True)
    ]
    return {"items": items, "response_metadata": meta}


# ---------------------------------------------------------------- pins


@method("pins.add", write=True)
def pins_add(p: Params) -> dict[str, Any]:
    chat.pin_message(g.db, g.actor, _item(p))
    return {}


@method("pins.remove", write=True)
def pins_remove(p: Params) -> dict[str, Any]:
    chat.unpin_message(g.db, g.actor, _item(p))
    return {}


@method("pins.list")
def pins_list(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    pinned = chat.pins(g.db, g.actor, c)
    items = [
        {"type": "message", "channel": c.slack_id, "message": obj, "created_by": obj["user"]}
        for obj in messages(pinned)
    ]
    return {"items": items}


# ---------------------------------------------------------------- bookmarks


def _bookmark(p: Params, c: Channel) -> Any:
    ref = p.text("bookmark_id", missing="invalid_bookmark_id")
    return chat.get_bookmark(g.db, g.actor, c, row_id(ref, "Bk", "bookmark", "not_found"))


@method("bookmarks.add", write=True)
def bookmarks_add(p: Params) -> dict[str, Any]:
    c = find_channel(p, "channel_id")
    if p.text("type", missing="invalid_type") != "link":
        raise Invalid("only link bookmarks are supported", code="invalid_type")
    mark = chat.add_bookmark(g.db, g.actor, c, title=p.text("title", missing="invalid_title"),
                             link=p.text("link", missing="invalid_link"),
                             emoji=p.text("emoji").strip(":"))  # fmt: skip
    return {"bookmark": bookmark_obj(mark)}


@method("bookmarks.edit", write=True)
def bookmarks_edit(p: Params) -> dict[str, Any]:
    c = find_channel(p, "channel_id")
    mark = chat.edit_bookmark(g.db, g.actor, _bookmark(p, c), title=p.text("title") or None,
                              link=p.text("link") or None)  # fmt: skip
    return {"bookmark": bookmark_obj(mark)}


@method("bookmarks.remove", write=True)
def bookmarks_remove(p: Params) -> dict[str, Any]:
    c = find_channel(p, "channel_id")
    chat.remove_bookmark(g.db, g.actor, _bookmark(p, c))
    return {}


@method("bookmarks.list")
def bookmarks_list(p: Params) -> dict[str, Any]:
    c = find_channel(p, "channel_id")
    return {"bookmarks": [bookmark_obj(b) for b in chat.list_bookmarks(g.db, g.actor, c)]}


# ---------------------------------------------------------------- search


@method("search.messages")
def search_messages(p: Params) -> dict[str, Any]:
    """Messages matching the query in Slack's search syntax (words, "phrases", ``from:``,
    ``in:``, ``before:``, ``after:``, ``on:``, ``during:``, ``has:``; see `search_syntax`)."""
    query = p.text("query", missing="no_query")
    if parse(query).is_empty():
        raise Invalid("the query has nothing to search for", code="no_query")
    found = {"query": query}
    count, number = p.number("count", 20, 1, 100), p.number("page", 1, 1, 100)
    total = chat.count_matches(g.db, g.actor, **found)
    chunk = chat.search_messages(g.db, g.actor, **found, limit=count, offset=(number - 1) * count)
    matches = [_match(m, obj) for m, obj in zip(chunk, messages(chunk), strict=True)]
    return {"query": query, "messages": {"matches": matches, **_paging(total, count, number)}}


def _paging(total: int, count: int, number: int) -> dict[str, Any]:
    """Slack's two page descriptions of search results: `paging` and the newer `pagination`
    (`first` and `last` count matches from 1)."""
    pages = max(1, math.ceil(total / count))
    return {
        "total": total,
        "paging": {"count": count, "total": total, "page": number, "pages": pages},
        "pagination": {
            "total_count": total,
            "page": number,
            "per_page": count,
            "page_count": pages,
            "first": (number - 1) * count + 1,
            "last": min(number * count, total),
        },
    }


def _match(m: Message, obj: dict[str, Any]) -> dict[str, Any]:
    c = m.channel
    obj["username"] = org.profile(g.db, m.user_id).handle
    obj["channel"] = {"id": c.slack_id, "name": c.name or "", "is_private": c.kind != "public"}
    obj["permalink"] = url_for("slack.thread", message_id=m.thread_parent_id or m.id,
                               _anchor=f"msg-{m.id}", _external=True)  # fmt: skip
    return obj
