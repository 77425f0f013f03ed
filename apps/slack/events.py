"""Slack apps and their Events API subscriptions: creating apps, and turning what a
committed transaction did (messages posted, reactions added or removed, people joining)
into the events each subscribed app may see.

Service operations call `message_posted`, `reaction_changed`, `member_joined` as they
write; those only note the fact in the session (no query, nothing sent). When the
session commits, and only if some app has a request URL, the notes become Events API
envelopes for the apps whose bot user may see them (a member of the conversation),
and are handed to `officegym.apps.slack.delivery`, which posts them off the request
path. A rolled-back transaction sends nothing. Event times (``event_ts``,
``event_time``) are the world's simulated clock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import event, select
from sqlalchemy.orm import Session, SessionTransaction

from officegym.apps.org.models import Person
from officegym.apps.slack.access import check_length, is_member
from officegym.apps.slack.models import App, Channel, Message
from officegym.clock import now
from officegym.db import get, read
from officegym.errors import Invalid, NotFound
from officegym.hosts import is_loopback
from officegym.writes import delete_row, insert_row, update_row

__all__ = [
    "EVENT_TYPES",
    "TEAM_ID",
    "app_of_token",
    "create_app",
    "delete_app",
    "envelopes",
    "member_joined",
    "message_posted",
    "reaction_changed",
    "update_app",
]

TEAM_ID = "T0000001"
# The subscribable event types (Slack's names); message.* by the kind of conversation.
EVENT_TYPES = (
    "app_mention",
    "member_joined_channel",
    "message.channels",
    "message.groups",
    "message.im",
    "message.mpim",
    "reaction_added",
    "reaction_removed",
)
MESSAGE_EVENT = {"public": "message.channels", "private": "message.groups"}
MESSAGE_EVENT |= {"dm": "message.im", "mpdm": "message.mpim"}
CHANNEL_TYPE = {"public": "channel", "private": "group", "dm": "im", "mpdm": "mpim"}
URL_RE = re.compile(r"^https?://[^\s/]+(/\S*)?$")
_NOTES = "slack_event_notes"  # session.info: what the open transaction did
_OUTBOX = "slack_event_outbox"  # session.info: envelopes to send once it commits
_ANY_SUBSCRIBED = select(App.id).where(App.request_url != "").limit(1)
_SUBSCRIBED = select(App).where(App.request_url != "").order_by(App.id)


# ---------------------------------------------------------------- apps


def create_app(
    s: Session,
    actor: Person,
    *,
    name: str,
    request_url: str = "",
    events: Sequence[str] = (),
    bot_user: Person | None = None,
    remote: bool = False,
) -> App:
    """Create an app whose bot user is `bot_user` (a person of the world; by default the
    actor), subscribed to `events` at `request_url`: an address of this machine unless
    `remote` (the API never allows it: an agent must not make a served world post to
    other hosts). Its tokens and signing secret are random: only the creator learns them."""
    name, events = _checked(name, request_url, events, remote=remote)
    return insert_row(
        s,
        App,
        name=name,
        bot_user_id=(bot_user or actor).id,
        created_by_id=actor.id,
        bot_token=f"xoxb-{secrets.token_hex(12)}",
        signing_secret=secrets.token_hex(16),
        verification_token=secrets.token_hex(12),
        request_url=request_url,
        events=events,
        created_at=now(s),
    )


def update_app(
    s: Session, actor: Person, app: App, *, name: str, request_url: str, events: Sequence[str]
) -> App:
    """Change an app's name and subscription (its creator only)."""
    if app.created_by_id != actor.id:
        raise NotFound(f"no app {app.slack_id} of yours", code="app_not_found")
    name, kinds = _checked(name, request_url, events, remote=False)
    update_row(s, app, name=name, request_url=request_url, events=kinds)
    return app


def _checked(
    name: str, request_url: str, events: Sequence[str], *, remote: bool
) -> tuple[str, str]:
    """The app's name and its event types as stored, or `Invalid` (``invalid_manifest``)."""
    name = check_length(name.strip(), 80, "app name")
    if not name:
        raise Invalid("an app needs a name", code="invalid_manifest")
    unknown = sorted(set(events) - set(EVENT_TYPES))
    if unknown:
        raise Invalid(f"unknown event types {unknown}", code="invalid_manifest")
    if request_url and not URL_RE.match(request_url):
        raise Invalid(f"request URL {request_url!r} is not http(s)", code="invalid_manifest")
    host = urlsplit(request_url).hostname or ""
    if request_url and not remote and not is_loopback(host):
        raise Invalid(
            f"request URL host {host!r} is not this machine: a sandboxed world posts events "
            "only to loopback addresses",
            code="invalid_manifest",
        )
    if events and not request_url:
        raise Invalid("events need a request URL", code="invalid_manifest")
    return name, ",".join(sorted(set(events)))


def delete_app(s: Session, actor: Person, app: App) -> None:
    if app.created_by_id != actor.id:
        raise NotFound(f"no app {app.slack_id} of yours", code="app_not_found")
    delete_row(s, app)


def app_of_token(s: Session, token: str) -> App | None:
    """The app whose bot token this is, if any."""
    if not token.startswith("xoxb-"):
        return None
    return s.scalars(select(App).where(App.bot_token == token)).first()


def get_app(s: Session, actor: Person, slack_id: str) -> App:
    found = re.fullmatch(r"A(\d{1,12})", slack_id.strip())
    app = get(s, App, int(found.group(1))) if found else None
    if app is None or app.created_by_id != actor.id:
        raise NotFound(f"no app {slack_id!r} of yours", code="app_not_found")
    return app


# ---------------------------------------------------------------- notes


def message_posted(s: Session, msg: Message, channel: Channel) -> None:
    s.info.setdefault(_NOTES, []).append(("message", msg.id, channel.id, None))


def reaction_changed(s: Session, msg: Message, person_id: int, emoji: str, added: bool) -> None:
    kind = "reaction_added" if added else "reaction_removed"
    s.info.setdefault(_NOTES, []).append((kind, msg.id, person_id, emoji))


def member_joined(s: Session, channel: Channel, person_id: int, inviter_id: int | None) -> None:
    note = ("member_joined_channel", channel.id, person_id, inviter_id)
    s.info.setdefault(_NOTES, []).append(note)


@event.listens_for(Session, "before_commit")
def _collect(s: Session) -> None:
    """Turn the transaction's notes into envelopes, if any app listens (one query)."""
    notes = s.info.pop(_NOTES, None)
    if not notes or read(s, _ANY_SUBSCRIBED).first() is None:
        return
    apps = list(s.scalars(_SUBSCRIBED))
    s.info.setdefault(_OUTBOX, []).extend(envelopes(s, apps, notes))


@event.listens_for(Session, "after_commit")
def _send(s: Session) -> None:
    outbox = s.info.pop(_OUTBOX, None)
    if outbox:
        from officegym.apps.slack import delivery

        delivery.dispatcher().submit(outbox)


@event.listens_for(Session, "after_soft_rollback")
def _forget(s: Session, previous: SessionTransaction) -> None:
    if not previous.nested:
        s.info.pop(_NOTES, None)
        s.info.pop(_OUTBOX, None)


# ---------------------------------------------------------------- envelopes


def envelopes(s: Session, apps: Sequence[App], notes: Sequence[tuple]) -> list[dict[str, Any]]:
    """Deliveries (url, secret, body) of every note to every app that subscribed to its
    type and whose bot user may see it."""
    out = []
    for note in notes:
        built = _event(s, note)
        if built is None:
            continue
        types, channel, ev = built
        for app in apps:
            wanted = set(app.event_types) & types
            bot = get(s, Person, app.bot_user_id)
            if not wanted or bot is None or not is_member(s, bot, channel):
                continue
            for kind in sorted(wanted):
                body = _envelope(app, _as_mention(ev, app) if kind == "app_mention" else ev)
                if body:
                    out.append({"url": app.request_url, "secret": app.signing_secret,
                                "body": body})  # fmt: skip
    return out


def _event(s: Session, note: tuple) -> tuple[set[str], Channel, dict[str, Any]] | None:
    """The event types a note may be delivered as, its conversation, and the event."""
    kind = note[0]
    if kind == "message":
        msg, channel = get(s, Message, note[1]), get(s, Channel, note[2])
        if msg is None or channel is None:
            return None
        ev = message_event(s, msg, channel)
        types = {MESSAGE_EVENT[channel.kind]}
        if "<@U" in ev["text"]:
            types.add("app_mention")
        return types, channel, ev
    if kind == "member_joined_channel":
        channel = get(s, Channel, note[1])
        if channel is None:
            return None
        ev = {"type": kind, "user": _uid(note[2]), "channel": channel.slack_id,
              "channel_type": "C" if channel.kind == "public" else "G", "team": TEAM_ID,
              "event_ts": _event_ts(s)}  # fmt: skip
        if note[3] is not None:
            ev["inviter"] = _uid(note[3])
        return {kind}, channel, ev
    msg = get(s, Message, note[1])
    if msg is None:
        return None
    item = {"type": "message", "channel": msg.channel.slack_id, "ts": msg.ts}
    ev = {"type": kind, "user": _uid(note[2]), "reaction": note[3], "item": item,
          "item_user": _uid(msg.user_id), "event_ts": _event_ts(s)}  # fmt: skip
    return {kind}, msg.channel, ev


def message_event(s: Session, msg: Message, channel: Channel) -> dict[str, Any]:
    """A message event as the Events API sends it (text in Slack's markup)."""
    from officegym.apps.slack.markup import to_wire

    ev: dict[str, Any] = {
        "type": "message",
        "channel": channel.slack_id,
        "user": _uid(msg.user_id),
        "text": to_wire(s, msg.text),
        "ts": msg.ts,
        "event_ts": msg.ts,
        "channel_type": CHANNEL_TYPE[channel.kind],
        "team": TEAM_ID,
    }
    if msg.thread_parent_id is not None:
        parent = get(s, Message, msg.thread_parent_id)
        if parent is not None:
            ev |= {"thread_ts": parent.ts, "parent_user_id": _uid(parent.user_id)}
        if msg.broadcast:
            ev["subtype"] = "thread_broadcast"
    return ev


def _as_mention(ev: dict[str, Any], app: App) -> dict[str, Any]:
    """The app_mention event of a message that mentions the app's bot user."""
    if f"<@{_uid(app.bot_user_id)}>" not in ev["text"]:
        return {}
    return {k: v for k, v in ev.items() if k != "channel_type"} | {"type": "app_mention"}


def _envelope(app: App, ev: dict[str, Any]) -> dict[str, Any]:
    """The outer event_callback envelope of the Events API."""
    if not ev:
        return {}
    seconds = int(float(ev["event_ts"]))
    digest = hashlib.sha256(f"{app.id}|{ev['type']}|{ev['event_ts']}|{ev.get('user')}".encode())
    return {
        "token": app.verification_token,
        "team_id": TEAM_ID,
        "api_app_id": app.slack_id,
        "event": ev,
        "type": "event_callback",
        "event_id": "Ev" + digest.hexdigest()[:12].upper(),
        "event_time": seconds,
        "authorizations": [_authorization(app)],
        "is_ext_shared_channel": False,
    }


def _authorization(app: App) -> dict[str, Any]:
    """Who the app acts as in this workspace (Bolt reads the user id from it)."""
    return {
        "enterprise_id": None,
        "team_id": TEAM_ID,
        "user_id": _uid(app.bot_user_id),
        "is_bot": True,
        "is_enterprise_install": False,
    }


def _uid(person_id: int) -> str:
    return f"U{person_id:07d}"


def _event_ts(s: Session) -> str:
    """An event time on the world's simulated clock, in Slack's ts form."""
    clock = s.info.get("clock")
    if clock is None:
        return "0.000000"
    return f"{int(clock.peek().replace(tzinfo=dt.UTC).timestamp())}.000000"
