"""What every app's templates share: reference calls (`call`), seeded picks (`pick`), person
look-ups, the next row id, the chat allowances for posts and direct messages, and the chat
steps that carry them (every app's templates may tell someone in chat that the work is
done: `post_step`, `reply_step`, `dm_step`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.channels import dm_key
from officegym.tasks.checks import Allow, NewRowId
from officegym.tasks.mutants import Equivalent
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

__all__ = [
    "allow_dm",
    "allow_dm_to",
    "allow_post",
    "call",
    "dm_channel",
    "dm_step",
    "new_channel",
    "next_id",
    "people",
    "people_rows",
    "person_row",
    "pick",
    "post_step",
    "reply_step",
]


def call(tool: str, /, **arguments: object) -> ToolCall:
    """One call of a reference solution: `call("slack_post_message", channel=..., text=...)`."""
    return ToolCall(tool, dict(arguments))


def pick(rng: random.Random, items: Sequence, what: str):
    """rng.choice that names what was missing instead of raising IndexError."""
    if not items:
        raise LookupError(f"the world has no {what} for this template")
    return rng.choice(list(items))


def people(w: Session) -> list[Person]:
    """Everyone in the org chart, as ORM persons, by id."""
    return list(w.scalars(select(Person).order_by(Person.id)))


def people_rows(w: Session) -> list[Any]:
    """Everyone in the org chart, as plain rows (snapshots that outlive the session), by id."""
    return list(w.execute(select(Person.__table__).order_by(Person.id)))


def person_row(w: Session, who: Any) -> Person:
    """The ORM person of an id, a person row or snapshot (services and chat helpers such as
    `allow_dm` want the ORM object)."""
    if isinstance(who, Person):
        return who
    person_id = who if isinstance(who, int) else who.id
    found = w.get(Person, person_id)
    if found is None:
        raise LookupError(f"no person #{person_id}")
    return found


def next_id(w: Session, model: type) -> int:
    """The id the next inserted row of `model` gets (SQLite: max(id) + 1), so reference
    solutions can name rows they create."""
    return (w.scalar(select(func.max(model.id))) or 0) + 1


def allow_post(
    channel_id: int | NewRowId | None,
    user_id: int,
    *,
    thread_parent_id: int | None = None,
    limit: int = 1,
) -> list[Allow]:
    """Allow `limit` new messages by the persona in one conversation (and their mentions):
    one by default, as many as the goal asks for (one announcement is one post). Posts
    that match the reference's use the allowance up first, so a reference posting there
    leaves no room for another unless `limit` says so."""
    where: dict[str, object] = {"user_id": user_id, "thread_parent_id": thread_parent_id}
    if channel_id is not None:
        where["channel_id"] = channel_id
    return [Allow("slack_message", where=where, limit=limit), Allow("slack_mention")]


def new_channel(**where: object) -> NewRowId:
    """The channel matching `where` that the episode creates (its id is known only then)."""
    return NewRowId("slack_channel", where)


def allow_dm(w: Session, me: Person, other: Person, *, limit: int = 1) -> list[Allow]:
    """Allow `limit` direct messages from `me` to `other`: in their DM if it exists, else in
    the one DM the episode opens (told apart by its creator, so a task may open one new DM;
    `allow_dm_to` tells new DMs apart by their members)."""
    existing = chat.find_dm(w, me, [other])
    if existing is not None:
        return allow_post(existing.id, me.id, limit=limit)
    dm = new_channel(kind="dm", created_by_id=me.id)
    return [
        Allow("slack_channel", where={"kind": "dm", "created_by_id": me.id}, limit=1),
        Allow("slack_membership", where={"channel_id": dm}, limit=2),
        *allow_post(dm, me.id, limit=limit),
    ]


def dm_channel(w: Session, me: Any, other: Any) -> int | NewRowId:
    """The DM of the two: its id if it exists, else the one the episode opens (found by
    its member key, so a task may open several DMs)."""
    found = chat.find_dm(w, person_row(w, me), [person_row(w, other)])
    if found is not None:
        return found.id
    return new_channel(kind="dm", dm_key=dm_key([me.id, other.id]))


def allow_dm_to(w: Session, me: Any, other: Any, *, limit: int = 1) -> list[Allow]:
    """Allow `limit` direct messages from `me` to `other`, in their DM if it exists, else in
    the DM the episode opens between exactly these two (named by its member key, so many
    new DMs in one task each have their own allowance). `me` and `other` are persons, rows
    or snapshots."""
    channel = dm_channel(w, me, other)
    if not isinstance(channel, NewRowId):
        return allow_post(channel, me.id, limit=limit)
    return [
        Allow("slack_channel", where=dict(channel.where), limit=1),
        Allow("slack_membership", where={"channel_id": channel}, limit=2),
        *allow_post(channel, me.id, limit=limit),
    ]


def post_step(
    me: Any,
    channel_id: int | NewRowId,
    text: str,
    says: Says,
    *,
    name: str,
    channel: str,
    limit: int = 1,
    weight: float = 1.0,
) -> Step:
    """Post `text` at the top level of a channel (`channel` as the tool names it, an id
    or name): the call, the check that `me`'s new posts there say what `says` asks, and
    `limit` posts allowed."""
    sent = call("slack_post_message", channel=channel, text=text)
    allowed = allow_post(channel_id, me.id, limit=limit)
    return _said_step(me, sent, says, name, weight, allowed, channel_id=channel_id)


def reply_step(
    me: Any,
    channel_id: int,
    message_id: int,
    text: str,
    says: Says,
    *,
    name: str,
    weight: float = 1.0,
) -> Step:
    """Reply `text` in the thread of `message_id`: the call, the check that `me`'s replies
    there say what `says` asks, and one reply allowed."""
    sent = call("slack_reply_in_thread", message_id=message_id, text=text)
    allowed = allow_post(channel_id, me.id, thread_parent_id=message_id)
    return _said_step(me, sent, says, name, weight, allowed, thread_of=message_id)


def dm_step(
    w: Session,
    me: Any,
    other: Any,
    text: str,
    says: Says,
    *,
    name: str,
    weight: float = 1.0,
    lone: bool = False,
    equivalent: Sequence[Equivalent] = (),
) -> Step:
    """Send `other` a direct message `text`: the call, the check that `me`'s messages in
    their DM say what `says` asks, and one message allowed: in their DM, or in the DM the
    episode opens between exactly the two (`allow_dm_to`); with `lone`, in the one new DM
    the episode may open, told apart by its creator (`allow_dm`)."""
    sent = call("slack_send_dm", people=[other.handle], text=text)
    if lone:
        allowed = allow_dm(w, person_row(w, me), person_row(w, other))
    else:
        allowed = allow_dm_to(w, me, other)
    return _said_step(me, sent, says, name, weight, allowed, equivalent, dm_to=other.id)


def _said_step(
    me: Any,
    sent: ToolCall,
    says: Says,
    name: str,
    weight: float,
    allowed: list[Allow],
    equivalent: Sequence[Equivalent] = (),
    **place: Any,
) -> Step:
    """One chat message: the call that sends it, the check (`name`) that `me`'s new
    messages at `place` (a `Said` place) say what `says` asks, what it may change and the
    mutants it cannot tell apart."""
    checks = [Said(name=name, author_id=me.id, says=says, weight=weight, **place)]
    return Step(calls=[sent], checks=checks, allowed=allowed, equivalent=equivalent)
