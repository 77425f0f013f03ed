"""Reactions and pins: adding and removing a person's emoji reactions, pinning and
unpinning top-level messages (members of active conversations only)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import events
from officegym.apps.slack import queries as q
from officegym.apps.slack.access import clean_emoji, require_active, require_member
from officegym.apps.slack.models import Message, Pin, Reaction
from officegym.clock import now
from officegym.errors import Conflict, Invalid, NotFound
from officegym.writes import delete_row, insert_new

__all__ = ["add_reaction", "pin_message", "remove_reaction", "unpin_message"]


def add_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction:
    emoji = clean_emoji(emoji)
    require_member(s, actor, message.channel)
    require_active(message.channel)
    # One statement: the unique (message, person, emoji) says whether it is already there,
    # also when a concurrent request of the same person added it a moment ago.
    reaction = insert_new(s, Reaction, message_id=message.id, person_id=actor.id, emoji=emoji)
    if reaction is None:
        raise Conflict(f"you already reacted with :{emoji}:", code="already_reacted")
    events.reaction_changed(s, message, actor.id, emoji, added=True)
    return reaction


def _own_reaction(s: Session, actor: Person, message: Message, emoji: str) -> Reaction | None:
    return s.scalars(q.REACTION, {"m": message.id, "p": actor.id, "e": emoji}).first()


def remove_reaction(s: Session, actor: Person, message: Message, emoji: str) -> None:
    emoji = clean_emoji(emoji)
    require_active(message.channel)
    reaction = _own_reaction(s, actor, message, emoji)
    if reaction is None:
        raise NotFound(f"you have no :{emoji}: reaction on this message", code="no_reaction")
    delete_row(s, reaction)
    events.reaction_changed(s, message, actor.id, emoji, added=False)


def pin_message(s: Session, actor: Person, message: Message) -> Pin:
    require_member(s, actor, message.channel)
    require_active(message.channel)
    if message.thread_parent_id is not None:
        raise Invalid("only top-level messages can be pinned")
    pin = insert_new(
        s,
        Pin,
        channel_id=message.channel_id,
        message_id=message.id,
        pinned_by_id=actor.id,
        pinned_at=now(s),
    )
    if pin is None:
        raise Conflict("message is already pinned", code="already_pinned")
    return pin


def unpin_message(s: Session, actor: Person, message: Message) -> None:
    require_member(s, actor, message.channel)
    require_active(message.channel)
    pin = s.scalars(q.PIN_OF, {"m": message.id}).first()
    if pin is None:
        raise NotFound("message is not pinned", code="no_pin")
    delete_row(s, pin)
