"""Slack templates about single messages: post, reply, DM, react, pin, edit, delete."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.apps.slack.queries import LIVE_POST
from officegym.seed_data.slack_text import DAYS, EMOJI, FEATURES, ROOMS, TIMES
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import Allow, FieldEquals, RowExists
from officegym.tasks.common import call, dm_step, people, pick, post_step, reply_step
from officegym.tasks.org import chain_phrase, lookup_calls, manager_chain
from officegym.tasks.slack.common import channels_of, index, pinned_ids, quote, reacted
from officegym.tasks.slack.steps import pin_step, react_step
from officegym.tasks.statements import Says, day_forms, rivals, with_plurals
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

EVENTS = ["design review", "sprint demo", "team lunch", "budget sync", "customer call", "retro"]


@template("slack.post-channel", difficulty="easy", knobs={"rows": (1, 2, 3)})
def post_channel(w: Session, rng: random.Random, level: Level) -> Spec:
    """Post an announcement with a given day, time and room in one of your channels (harder
    levels: in two or three)."""
    me = pick(rng, people(w), "people")
    ch = pick(rng, channels_of(w, me), "channels")
    event, day, time, room = (
        rng.choice(EVENTS),
        rng.choice(DAYS),
        rng.choice(TIMES),
        rng.choice(ROOMS),
    )
    chosen = [ch]
    if level.rows > 1:
        others = [c for c in channels_of(w, me) if c.id != ch.id]
        if len(others) < level.rows - 1:
            raise LookupError(f"the persona needs {level.rows} channels for this level")
        chosen += rng.sample(others, level.rows - 1)
    text = f"The {event} is moved to {day} at {time} in the {room} room."
    says = Says(
        all_of=[[event], day_forms(day), [time], [room]],
        none_of=[
            *rivals(EVENTS, event),
            *(f for d in rivals(DAYS, day) for f in day_forms(d)),
            *rivals(TIMES, time),
            *rivals(ROOMS, room),
        ],
        act="announce",
    )
    where = " and ".join(", ".join(f"#{c.name}" for c in chosen).rsplit(", ", 1))
    return Spec(
        goal=f"Let everyone in {where} know that the {event} is moved to {day} at {time} "
        f"in the {room} room.",
        persona=me.handle,
        steps=[
            post_step(
                me, c.id, text, says, name=f"announcement posted in #{c.name}", channel=c.name
            )
            for c in chosen
        ],
    )


def _quotable(w: Session, rng: random.Random, me: Person, *, exclude_own: bool) -> Message:
    """A distinctive recent top-level message in one of `me`'s channels."""
    idx = index(w)
    mine = [c.id for c in channels_of(w, me)]
    for cid in rng.sample(mine, k=len(mine)):
        good = [
            p for p in idx.quotable.get(cid, [])[-60:] if not (exclude_own and p.user_id == me.id)
        ]
        if good:
            return w.get_one(Message, rng.choice(good).id)
    raise LookupError("no quotable message")


@template("slack.reply-thread", difficulty="medium")
def reply_thread(w: Session, rng: random.Random) -> Spec:
    """Find a quoted message and reply in its thread, mentioning its author."""
    me = pick(rng, people(w), "people")
    msg = _quotable(w, rng, me, exclude_own=True)
    ch, author = msg.channel, msg.user
    day = rng.choice(DAYS)
    text = f"@{author.handle} I'll take this one and report back by {day}."
    says = Says(
        all_of=[[f"@{author.handle}"], day_forms(day)],
        none_of=[f for d in rivals(DAYS, day) for f in day_forms(d)],
        act="commit",
    )
    return Spec(
        goal=f'In #{ch.name}, {author.name} wrote: "{quote(msg.text)}". Reply in that '
        f"message's thread, mention @{author.handle}, and say you'll take it and report "
        f"back by {day}.",
        persona=me.handle,
        steps=[
            Step(calls=[_search(msg, channel=ch.name)]),
            reply_step(
                me,
                ch.id,
                msg.id,
                text,
                says,
                name="reply in the right thread mentions the author and the day",
            ),
        ],
    )


@template("slack.react-message", difficulty="medium")
def react_message(w: Session, rng: random.Random) -> Spec:
    """Add a given emoji reaction to a quoted message."""
    me = pick(rng, people(w), "people")
    for _ in range(20):
        msg = _quotable(w, rng, me, exclude_own=False)
        emoji = rng.choice(EMOJI)
        if not reacted(w, msg, me, emoji):
            break
    ch = msg.channel
    return Spec(
        goal=f"React with :{emoji}: to the message in #{ch.name} by {msg.user.name} that "
        f'says "{quote(msg.text)}".',
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_read_channel", channel=ch.name, limit=50),
                    _search(msg, channel=ch.name),
                ]
            ),
            react_step(me, msg.id, emoji, name=f":{emoji}: reaction on the quoted message"),
        ],
    )


@template("slack.pin-message", difficulty="medium")
def pin_message(w: Session, rng: random.Random) -> Spec:
    """Pin a quoted message in a channel you belong to."""
    me = pick(rng, people(w), "people")
    pinned = pinned_ids(w)
    for _ in range(20):
        msg = _quotable(w, rng, me, exclude_own=False)
        if msg.id not in pinned:
            break
    ch = msg.channel
    return Spec(
        goal=f'Pin {msg.user.name}\'s message "{quote(msg.text)}" in #{ch.name}.',
        persona=me.handle,
        steps=[
            Step(calls=[_search(msg, channel=ch.name)]),
            pin_step(msg.id, ch.id, name="quoted message is pinned"),
        ],
    )


def _search(msg: Message, **where: str) -> ToolCall:
    """The search that finds a quoted message by its first words."""
    return call("slack_search_messages", query=quote(msg.text, 30).rstrip("."), **where)


def _own_with_word(w: Session, rng: random.Random, words: Sequence[str]) -> tuple[Message, str]:
    """A top-level message of someone's that contains one of `words` once (for edits)."""
    message_id, word = pick(rng, _editable(w.get_bind(), tuple(words)), "editable messages")
    return w.get_one(Message, message_id), word


@functools.lru_cache(maxsize=8)
def _editable(engine: Engine, words: tuple[str, ...]) -> list[tuple[int, str]]:
    """(message id, word) of the live top-level messages in active named channels that
    contain exactly one of `words`, once: read once per world."""
    stmt = (
        select(Message.id, Message.text)
        .join(Channel, Channel.id == Message.channel_id)
        .where(*LIVE_POST)
        .order_by(Message.id)
    )
    with Session(engine) as w:
        rows = w.execute(stmt).all()
    return [
        (row.id, word)
        for row in rows
        for word in words
        if f" {word}" in row.text and row.text.count(word) == 1
    ]


@template("slack.edit-own-message", difficulty="medium")
def edit_own_message(w: Session, rng: random.Random) -> Spec:
    """Correct a day name in one of your own earlier messages."""
    msg, old = _own_with_word(w, rng, DAYS)
    me, ch = msg.user, msg.channel
    new = rng.choice([d for d in DAYS if d != old])
    fixed = msg.text.replace(old, new)

    return Spec(
        goal=f'In #{ch.name} you wrote "{quote(msg.text, 80)}", but you meant {new}, not '
        f"{old}. Edit that message to say {new} instead.",
        persona=me.handle,
        steps=[
            Step(
                calls=[call("slack_search_messages", query=old, channel=ch.name, author=me.handle)]
            ),
            Step(
                calls=[call("slack_edit_message", message_id=msg.id, text=fixed)],
                checks=[
                    RowExists(
                        name=f"message now says {new}, not {old}, and nothing else changed",
                        table="slack_message",
                        where={"id": msg.id},
                        says={"text": Says(exactly=fixed)},
                    ),
                    FieldEquals(
                        name="message still live (guard)",
                        weight=0,
                        table="slack_message",
                        row_id=msg.id,
                        field="is_deleted",
                        value=False,
                    ),
                ],
                allowed=[
                    Allow.update("slack_message", msg.id, {"text", "edited_at"}, limit=None),
                    Allow(
                        "slack_mention", kinds=("insert", "delete"), where={"message_id": msg.id}
                    ),
                ],
            ),
        ],
    )


@template("slack.delete-own-message", difficulty="medium")
def delete_own_message(w: Session, rng: random.Random) -> Spec:
    """Delete one of your own messages, leaving your similar messages elsewhere alone."""
    mine = _own_quotables(w.get_bind())
    me = pick(rng, [p for p in people(w) if mine.get(p.id)], "authors")
    msg = w.get_one(Message, rng.choice(mine[me.id]))
    ch = msg.channel
    return Spec(
        goal=f'Delete the message you posted in #{ch.name} that says "{quote(msg.text)}". '
        "Leave your other messages alone.",
        persona=me.handle,
        steps=[
            Step(calls=[_search(msg, author=me.handle)]),
            Step(
                calls=[call("slack_delete_message", message_id=msg.id)],
                checks=[
                    FieldEquals(
                        name="message deleted",
                        table="slack_message",
                        row_id=msg.id,
                        field="is_deleted",
                        value=True,
                    )
                ],
                allowed=[Allow.update("slack_message", msg.id, {"is_deleted"}, limit=None)],
            ),
        ],
    )


@functools.lru_cache(maxsize=8)
def _own_quotables(engine: Engine) -> dict[int, list[int]]:
    """Person id -> ids of their recent distinctive messages (the last 10 per channel) in
    channels they still belong to: read once per world."""
    with Session(engine) as w:
        idx = index(w)
        members = idx.members
    mine: dict[int, list[int]] = {}
    for cid, posts in sorted(idx.quotable.items()):
        by_author: dict[int, list[int]] = {}
        for p in posts:
            if p.user_id in members.get(cid, ()):
                by_author.setdefault(p.user_id, []).append(p.id)
        for author, ids in by_author.items():
            mine.setdefault(author, []).extend(ids[-10:])
    return mine


@template("slack.dm-by-name", difficulty="easy", knobs={"hops": (0, 1, 2)})
def dm_by_name(w: Session, rng: random.Random, level: Level) -> Spec:
    """Send a direct message to a person named by full name (others may share a first name);
    harder levels name them through the org chart (one or two managers up from someone)."""
    everyone = people(w)
    me = pick(rng, everyone, "people")
    firsts = [p.name.split()[0] for p in everyone]
    shared = [p for p in everyone if p.id != me.id and firsts.count(p.name.split()[0]) > 1]
    chain = [rng.choice(shared or [p for p in everyone if p.id != me.id])]
    if level.hops:
        chain = manager_chain(rng, everyone, level.hops, avoid=(me.id,))
    target = chain[-1]
    feature = rng.choice(FEATURES)
    text = f"Hi {target.name.split()[0]}, could you send me the latest notes on the {feature}?"
    find = lookup_calls(chain) or [call("slack_list_people", query=target.name.split()[-1])]
    says = Says(
        all_of=[with_plurals([feature])],
        none_of=with_plurals(rivals(FEATURES, feature)),
        act="request",
    )
    return Spec(
        goal=f"Send {chain_phrase(chain)} a direct message asking for the latest notes on the "
        f"{feature}.",
        persona=me.handle,
        steps=[
            Step(calls=find),
            dm_step(w, me, target, text, says, name=f"DM sent to {target.name}", lone=True),
        ],
    )
