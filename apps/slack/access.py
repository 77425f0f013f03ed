"""Who may see and do what in the chat: the look-ups that respect it, and the rules every
operation checks.

Rules (as in Slack): anyone may read public channels; private channels, DMs and
group DMs only their members; posting, reacting and pinning need membership;
archived channels are read-only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.org.service import Profile, find_person_id, profile, profiles
from officegym.apps.slack import queries as q
from officegym.apps.slack.models import Channel, Membership, Message
from officegym.db import get, read
from officegym.errors import Forbidden, Invalid, NotFound
from officegym.memo import recall, watch

SLACK_ID_RE = re.compile(r"^[CGD](\d{7})$")
Someone = Person | Profile  # a person as an ORM row or as a directory card: both have .id


def get_channel(s: Session, actor: Person, ref: str | int) -> Channel:
    """A channel the actor can see, by name ('#sales' or 'sales'), Slack id or row id."""
    channel = _find_channel(s, ref)
    if channel is None or not can_read(s, actor, channel):
        raise NotFound(f"no channel {ref!r} that you can see", code="channel_not_found")
    return channel


def _find_channel(s: Session, ref: str | int) -> Channel | None:
    if isinstance(ref, int):
        return get(s, Channel, ref)
    key = str(ref).strip()
    match = SLACK_ID_RE.match(key)
    if match:
        return get(s, Channel, int(match.group(1)))
    name = key.lstrip("#").lower()
    channel_id = recall(
        s, "slack.channel", name, lambda: read(s, q.ID_BY_NAME, {"name": name}).scalar()
    )
    return get(s, Channel, channel_id) if channel_id is not None else None


# Look-ups by name and by (channel, person) are memoized per session; see officegym.memo.
watch("slack.channel", Channel)
watch("slack.membership", Membership)
watch("slack.dm", Channel, Membership)


def membership(s: Session, person: Someone, channel: Channel) -> Membership | None:
    found = _membership_id(s, person, channel)
    return get(s, Membership, found) if found is not None else None


def _membership_id(s: Session, person: Someone, channel: Channel) -> int | None:
    key = (channel.id, person.id)
    params = {"c": channel.id, "p": person.id}
    return recall(s, "slack.membership", key, lambda: read(s, q.MEMBERSHIP, params).scalar())


def is_member(s: Session, person: Someone, channel: Channel) -> bool:
    return _membership_id(s, person, channel) is not None


def can_read(s: Session, actor: Person, channel: Channel) -> bool:
    return channel.kind == "public" or is_member(s, actor, channel)


def get_message(
    s: Session, actor: Person, message_id: int, *, include_deleted: bool = False
) -> Message:
    """A live message the actor can read; with `include_deleted`, a deleted one too (a
    thread's parent stays the anchor of its live replies)."""
    msg = get(s, Message, message_id)
    hidden = msg is None or (msg.is_deleted and not include_deleted)
    if hidden or not can_read(s, actor, msg.channel):
        raise NotFound(f"no message {message_id} that you can see", code="message_not_found")
    return msg


def require_member(s: Session, actor: Person, channel: Channel) -> None:
    if is_member(s, actor, channel):
        return
    if not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    raise Forbidden(
        f"you are not a member of #{channel.name}; join it first", code="not_in_channel"
    )


def require_active(channel: Channel) -> None:
    if channel.is_archived:
        raise Forbidden(f"#{channel.name} is archived and read-only", code="is_archived")


def resolve_people(s: Session, refs: Sequence[str]) -> list[Profile]:
    """People by handle, email or name; NotFound names the first unknown one."""
    return [profile(s, find_person_id(s, r)) for r in refs]


PICKED_APART = re.compile(r"[,;\n]+")
MOST_PICKED = 50


def pick_people(s: Session, text: str) -> list[Profile]:
    """The people a picker's text names, separated by commas: each by @handle, email or
    full name, or by part of a name or handle only one person has (``kim tu`` for Kim
    Turner), as a person types into Slack's "To:" field. A part that fits several people
    is `Invalid`, naming them, so the next try can be exact."""
    refs = list(dict.fromkeys(r.strip() for r in PICKED_APART.split(text) if r.strip()))
    if not refs:
        raise Invalid("type at least one person's name or @handle")
    if len(refs) > MOST_PICKED:
        raise Invalid(f"pick at most {MOST_PICKED} people at once")
    return [_picked(s, ref) for ref in refs]


def _picked(s: Session, ref: str) -> Profile:
    try:
        return profile(s, find_person_id(s, ref))
    except NotFound:
        pass
    words = ref.lstrip("@").casefold().split()
    fits = [p for p in profiles(s).values()
            if all(w in f"{p.name} {p.handle}".casefold() for w in words)]  # fmt: skip
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise NotFound(f"no one's name, @handle or email matches {ref!r}", code="user_not_found")
    shown = ", ".join(f"{p.name} (@{p.handle})" for p in fits[:8])
    more = f" and {len(fits) - 8} more" if len(fits) > 8 else ""
    raise Invalid(f"{ref!r} fits {len(fits)} people: {shown}{more}; type more of the name")


# ---------------------------------------------------------------- input limits


def clamp(limit: int, most: int = 200) -> int:
    """A list size the caller asked for, kept within 1..`most`."""
    return max(1, min(int(limit), most))


def check_length(value: str, n: int, what: str, *, code: str = "invalid_arguments") -> str:
    """`value`, or `Invalid` if it is longer than `n` characters."""
    if len(value) > n:
        raise Invalid(f"{what} is longer than {n} characters", code=code)
    return value


EMOJI_RE = re.compile(r"^[a-z0-9_+-]{1,60}$")


def clean_emoji(emoji: str) -> str:
    """An emoji name without colons, lower case; `Invalid` if it is not one."""
    name = emoji.strip().strip(":").lower()
    if not EMOJI_RE.match(name):
        raise Invalid(f"invalid emoji name {emoji!r}", code="invalid_name")
    return name
