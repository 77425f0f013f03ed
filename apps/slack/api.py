"""The Slack Web API subset, under ``/api/<method>``, so existing Slack client code
(e.g. ``slack_sdk.WebClient(token=..., base_url="http://127.0.0.1:<port>/api/")``)
runs against the clone unmodified.

It answers as Slack does: form, query or JSON parameters; ``{"ok": true, ...}`` or
``{"ok": false, "error": "<code>"}`` with HTTP 200; cursor pagination through
``response_metadata.next_cursor`` (``search.messages`` pages by number, as
Slack's does). Ids are Slack's: channels ``C``/``G``/``D`` + 7 digits
(`Channel.slack_id`), people ``U`` + the zero-padded person id, messages by
`Message.ts` (the row id is its fractional part); ``latest`` / ``oldest`` of
conversations.history are Unix times (`officegym.apps.slack.api_conversations`).

No other site may drive it through a browser: methods that change state
(`WRITE_METHODS`) are accepted only by POST (``invalid_request``, HTTP 405,
otherwise), and a request whose ``Origin`` is not this server's or that carries
``Sec-Fetch-Site: cross-site`` is ``access_denied`` (HTTP 403), whatever the method.

Authentication: every person of the world has the token ``xoxp-<handle>``
(`officegym.personas.token_for`), sent as ``Authorization: Bearer xoxp-<handle>``
or as the ``token`` parameter; a missing token is ``not_authed``, an unknown one
``invalid_auth``, and a person the server's persona policy refuses (a server
locked to an agent's persona) ``persona_locked``. Every call goes through the
chat and directory services and their access rules; their error codes (``not_in_channel``,
``channel_not_found``, ``is_archived``, ``cant_update_message`` ...) are the
Slack error codes returned.

Methods: auth.test, conversations.list / history / replies / info / members /
create / invite / archive, chat.postMessage / update / delete, reactions.add /
remove, pins.add, users.list / info, search.messages.
"""

from __future__ import annotations

import math
import re
from typing import Any

from flask import Blueprint, current_app, g, jsonify, request, url_for
from werkzeug.wrappers import Response

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import api_conversations  # noqa: F401  (registers conversations.*)
from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import (
    METHODS,
    TEAM_ID,
    TEAM_NAME,
    WRITE_METHODS,
    Params,
    cursor_position,
    find_channel,
    find_message,
    find_person,
    is_user_id,
    messages,
    method,
    next_cursor,
    user_id,
    user_obj,
)
from officegym.apps.slack.models import Channel, Message
from officegym.errors import Forbidden, Invalid, NotFound, OfficeGymError
from officegym.personas import bearer_token, handle_of_token
from officegym.web import persona_policy

__all__ = ["METHODS", "WRITE_METHODS", "bp", "user_id"]

bp = Blueprint("slack_api", __name__)

# Service codes that Slack spells differently for one method.
RENAMED: dict[tuple[str, str], str] = {
    ("conversations.archive", "is_archived"): "already_archived",
    ("chat.postMessage", "message_not_found"): "thread_not_found",
    ("pins.add", "invalid_arguments"): "not_pinnable",  # the service pins top-level messages only
}
SEARCH_FILTER_RE = re.compile(r"^(in|from):(\S+)$")


# ---------------------------------------------------------------- dispatch


@bp.route("/<name>", methods=["GET", "POST"])
def dispatch(name: str) -> tuple[Response, int]:
    """Refuse cross-site callers, authenticate by token, run one method, answer in Slack's
    envelope."""
    refused = _refuse_cross_site() or _refuse_method(name)
    if refused is not None:
        return refused
    handler = METHODS.get(name)
    if handler is None:
        return _fail("unknown_method", f"no API method {name!r}")
    try:
        params = Params(_parameters())
        g.actor = _authenticate(params)
        body = handler(params)
    except OfficeGymError as exc:
        g.db.rollback()
        return _fail(RENAMED.get((name, exc.code), exc.code), exc.message)
    except Exception:  # a bug answers like Slack's fatal_error; the web layer rolls back
        current_app.logger.exception("Slack API method %s failed", name)
        return _fail("internal_error", "internal error", status=500)
    return jsonify({"ok": True, **body}), 200


def _fail(code: str, detail: str, *, status: int = 200) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": code, "detail": detail}), status


def _refuse_cross_site() -> tuple[Response, int] | None:
    """Another site's page (an <img>, a form, a fetch) may not call the API: a browser
    marks such a request with an `Origin` other than ours or `Sec-Fetch-Site: cross-site`.
    Clients outside a browser (slack_sdk, curl) send neither."""
    origin = request.headers.get("Origin")
    own = request.host_url.rstrip("/").lower()
    if origin is not None and origin.rstrip("/").lower() != own:
        return _fail("access_denied", f"requests from {origin} are refused", status=403)
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return _fail("access_denied", "cross-site requests are refused", status=403)
    return None


def _refuse_method(name: str) -> tuple[Response, int] | None:
    """Methods that change state are accepted only by POST (slack_sdk posts every call)."""
    if name not in WRITE_METHODS or request.method == "POST":
        return None
    answer, status = _fail("invalid_request", f"{name} changes state: send it by POST", status=405)
    answer.headers["Allow"] = "POST"
    return answer, status


def _parameters() -> dict[str, Any]:
    """Query, form and JSON body parameters merged (a JSON body wins)."""
    merged: dict[str, Any] = {**request.args.to_dict(), **request.form.to_dict()}
    body = request.get_json(silent=True) if request.is_json else None
    if isinstance(body, dict):
        merged.update(body)
    return merged


def _authenticate(params: Params) -> Person:
    """The person whose token the request carries (header first, then `token`), if the
    server's persona policy lets them act."""
    token = bearer_token(request.headers.get("Authorization")) or params.text("token")
    if not token:
        raise Forbidden("no token given", code="not_authed")
    handle = handle_of_token(token)
    try:
        person = org.find_person(g.db, handle) if handle else None
    except NotFound:
        person = None
    if person is None or person.handle != handle:
        raise Forbidden("the token matches nobody in this world", code="invalid_auth")
    persona_policy(current_app).admit(person.handle)
    return person


# ---------------------------------------------------------------- auth, users


@method("auth.test")
def auth_test(p: Params) -> dict[str, Any]:
    me = g.actor
    return {
        "url": request.host_url,
        "team": TEAM_NAME,
        "user": me.handle,
        "team_id": TEAM_ID,
        "user_id": user_id(me.id),
        "is_enterprise_install": False,
    }


@method("users.list")
def users_list(p: Params) -> dict[str, Any]:
    start, size = cursor_position(p), p.number("limit", 200, 1, 1000)
    people = org.list_people(g.db, limit=start + size + 1)[start:]
    more = len(people) > size
    return {
        "members": [user_obj(x) for x in people[:size]],
        "cache_ts": 0,
        "response_metadata": next_cursor(start + size if more else None),
    }


@method("users.info")
def users_info(p: Params) -> dict[str, Any]:
    return {"user": user_obj(find_person(p.text("user", missing="user_not_found")))}


# ---------------------------------------------------------------- chat, reactions, pins


def _post_target(p: Params) -> Channel:
    """The conversation to post in; a user id (``U...``) means the DM with that person."""
    ref = p.text("channel", missing="channel_not_found")
    if is_user_id(ref):
        return chat.open_dm(g.db, g.actor, [find_person(ref)])
    return chat.get_channel(g.db, g.actor, ref)


@method("chat.postMessage", write=True)
def chat_post_message(p: Params) -> dict[str, Any]:
    c = _post_target(p)
    parent = find_message(p, c, "thread_ts") if p.text("thread_ts") else None
    msg = chat.post_message(g.db, g.actor, c, p.text("text"), thread_parent=parent)
    return {"channel": c.slack_id, "ts": msg.ts, "message": messages([msg])[0]}


@method("chat.update", write=True)
def chat_update(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    msg = chat.edit_message(g.db, g.actor, find_message(p, c), p.text("text"))
    return {"channel": c.slack_id, "ts": msg.ts, "text": msg.text, "message": messages([msg])[0]}


@method("chat.delete", write=True)
def chat_delete(p: Params) -> dict[str, Any]:
    c = find_channel(p)
    msg = find_message(p, c)
    chat.delete_message(g.db, g.actor, msg)
    return {"channel": c.slack_id, "ts": msg.ts}


def _reaction_target(p: Params) -> tuple[Message, str]:
    if not p.text("channel") or not p.text("timestamp"):
        raise Invalid("name a message by channel and timestamp", code="no_item_specified")
    msg = find_message(p, find_channel(p), "timestamp")
    return msg, p.text("name", missing="invalid_name")


@method("reactions.add", write=True)
def reactions_add(p: Params) -> dict[str, Any]:
    msg, emoji = _reaction_target(p)
    chat.add_reaction(g.db, g.actor, msg, emoji)
    return {}


@method("reactions.remove", write=True)
def reactions_remove(p: Params) -> dict[str, Any]:
    msg, emoji = _reaction_target(p)
    chat.remove_reaction(g.db, g.actor, msg, emoji)
    return {}


@method("pins.add", write=True)
def pins_add(p: Params) -> dict[str, Any]:
    if not p.text("channel") or not p.text("timestamp"):
        raise Invalid("name a message by channel and timestamp", code="no_item_specified")
    chat.pin_message(g.db, g.actor, find_message(p, find_channel(p), "timestamp"))
    return {}


# ---------------------------------------------------------------- search


@method("search.messages")
def search_messages(p: Params) -> dict[str, Any]:
    """Messages matching every word; ``in:#channel`` and ``from:@handle`` narrow it."""
    query = p.text("query", missing="no_query")
    words, where, author = _search_filters(query)
    if not words:
        raise Invalid("the query has no words to search for", code="no_query")
    found = chat.search_messages(
        g.db, g.actor, query=" ".join(words), channel=where, author=author, limit=200
    )
    count, number = p.number("count", 20, 1, 100), p.number("page", 1, 1, 100)
    chunk = found[(number - 1) * count : number * count]
    matches = [_match(m, obj) for m, obj in zip(chunk, messages(chunk), strict=True)]
    return {"query": query, "messages": {"matches": matches, **_paging(len(found), count, number)}}


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


def _search_filters(query: str) -> tuple[list[str], Channel | None, Person | None]:
    """Split Slack's ``in:`` / ``from:`` modifiers off the words of a query."""
    words: list[str] = []
    where: Channel | None = None
    author: Person | None = None
    for word in query.split():
        found = SEARCH_FILTER_RE.match(word)
        if found is None:
            words.append(word)
            continue
        ref = found.group(2).strip("<>").lstrip("#@").split("|")[0]
        if found.group(1) == "in":
            where = chat.get_channel(g.db, g.actor, ref)
        else:
            author = find_person(ref) if is_user_id(ref) else org.find_person(g.db, ref)
    return words, where, author


def _match(m: Message, obj: dict[str, Any]) -> dict[str, Any]:
    c = m.channel
    obj["username"] = m.user.handle
    obj["channel"] = {"id": c.slack_id, "name": c.name or "", "is_private": c.kind != "public"}
    obj["permalink"] = url_for("slack.thread", message_id=m.id, _external=True)
    return obj
