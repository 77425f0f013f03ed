"""The users.*, team.* and emoji.list methods of the Slack Web API subset: the
directory (with the profile fields bots read: title, team, manager, status, time
zone), a person's conversations, and the workspace itself."""

from __future__ import annotations

from typing import Any

from flask import g

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.apps.slack.api_conversations import CONVERSATION_TYPES, wanted_types
from officegym.apps.slack.api_objects import (
    TEAM_ID,
    TEAM_NAME,
    Params,
    cursor_position,
    find_person,
    method,
    next_cursor,
    page,
)
from officegym.apps.slack.api_views import PROFILE_FIELDS, channel_obj, profile_obj, user_obj
from officegym.errors import Invalid, NotFound

__all__ = ["EMOJI"]

# The workspace's custom emoji (emoji.list): none are uploaded, so only aliases of standard ones.
EMOJI = {"shipit": "alias:squirrel", "thumbsup_all": "alias:+1", "party": "alias:tada"}
PROFILE_WRITABLE = {"status_text", "status_emoji", "status_expiration"}


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


@method("users.lookupByEmail")
def users_lookup_by_email(p: Params) -> dict[str, Any]:
    email = p.text("email", missing="invalid_email").lower()
    if "@" not in email:
        raise Invalid(f"{email!r} is not an email address", code="invalid_email")
    matches = [x for x in org.list_people(g.db, query=email, limit=5) if x.email.lower() == email]
    if not matches:
        raise NotFound(f"nobody has the email {email}", code="users_not_found")
    return {"user": user_obj(matches[0])}


@method("users.conversations")
def users_conversations(p: Params) -> dict[str, Any]:
    """The conversations a person belongs to (the caller's by default), of the given types,
    as far as the caller may see them."""
    me = g.actor
    who = find_person(p.text("user")) if p.text("user") else me
    types = wanted_types(p)
    found = [c for c in chat.list_channels(g.db, who, member_only=True,
                                           include_archived=not p.flag("exclude_archived"))
             if chat.can_read(g.db, me, c)]  # fmt: skip
    if who.id == me.id:
        found += chat.list_conversations_of(g.db, me)
    found = [c for c in found if CONVERSATION_TYPES[c.kind] in types]
    chunk, meta = page(found, p, 100, 1000)
    mine = {c.id for c in found} if who.id == me.id else None
    return {"channels": [channel_obj(c, mine) for c in chunk], "response_metadata": meta}


@method("users.getPresence")
def users_get_presence(p: Params) -> dict[str, Any]:
    """Everyone is at work in the simulated office."""
    if p.text("user"):
        find_person(p.text("user"))  # an unknown user is user_not_found
    return {"presence": "active", "online": True, "auto_away": False, "manual_away": False}


@method("users.profile.get")
def users_profile_get(p: Params) -> dict[str, Any]:
    who = find_person(p.text("user")) if p.text("user") else g.actor
    return {"profile": profile_obj(who)}


@method("users.profile.set", write=True)
def users_profile_set(p: Params) -> dict[str, Any]:
    """Set the caller's status (`status_text`, `status_emoji`), as a JSON `profile` or as
    `name`/`value`; the rest of the profile is the company directory, read-only here."""
    changes = p.json("profile")
    if changes is None and p.text("name"):
        changes = {p.text("name"): p.text("value")}
    if not isinstance(changes, dict) or not changes:
        raise Invalid("give a profile object, or name and value", code="invalid_profile")
    other = sorted(set(map(str, changes)) - PROFILE_WRITABLE)
    if other:
        raise Invalid(f"only the status can be set here, not {other}", code="invalid_profile")
    current = chat.get_status(g.db, g.actor)
    text = changes.get("status_text", current.text if current else "")
    emoji = changes.get("status_emoji", f":{current.emoji}:" if current and current.emoji else "")
    if not isinstance(text, str) or not isinstance(emoji, str):
        raise Invalid("status_text and status_emoji are strings", code="invalid_profile")
    if emoji and not emoji.strip(":"):
        emoji = ""
    chat.set_status(g.db, g.actor, text, emoji)
    return {"profile": profile_obj(g.actor)}


@method("team.info")
def team_info(p: Params) -> dict[str, Any]:
    return {
        "team": {
            "id": TEAM_ID,
            "name": TEAM_NAME,
            "domain": TEAM_NAME,
            "email_domain": g.actor.email.partition("@")[2],
            "icon": {"image_default": True},
        }
    }


@method("team.profile.get")
def team_profile_get(p: Params) -> dict[str, Any]:
    """The custom profile fields every user's profile may carry (Team, Manager)."""
    return {"profile": {"fields": PROFILE_FIELDS}}


@method("emoji.list")
def emoji_list(p: Params) -> dict[str, Any]:
    return {"emoji": dict(sorted(EMOJI.items())), "cache_ts": "0.000000"}
