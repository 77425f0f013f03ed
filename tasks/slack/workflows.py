"""Multi-step Slack templates (8+ calls) with distractors."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, GradeContext, NewRowId, Predicate, RowExists, resolve
from officegym.tasks.common import call, dm_step, new_channel, next_id, people, pick, post_step
from officegym.tasks.slack.common import channels_of, index, reacted
from officegym.tasks.slack.said import Said
from officegym.tasks.slack.steps import invite_step, react_step
from officegym.tasks.statements import Says, mentions
from officegym.tasks.steps import Step


@template("slack.onboard-new-hire", difficulty="hard")
def onboard_new_hire(w: Session, rng: random.Random) -> Spec:
    """Set up an onboarding channel for a colleague: create, invite, welcome, pin, notify."""
    everyone = people(w)
    me = pick(rng, [p for p in everyone if p.title.startswith("Head of")], "team heads")
    hire = rng.choice(
        [p for p in everyone if p.manager_id and p.id != me.id and p.manager_id != me.id]
    )
    boss = w.get_one(Person, hire.manager_id)
    first = hire.name.split()[0]
    name = f"onboarding-{hire.handle}"
    channel, mid = new_channel(name=name), next_id(w, Message)
    welcome = f"Welcome @{hire.handle}! This channel has everything for your first weeks."
    note = f"Hi {boss.name.split()[0]}, #{name} is ready for {first}'s onboarding."
    return Spec(
        goal=f"{hire.name} is starting an onboarding programme. Create a private channel "
        f'#{name} with the topic "Onboarding for {first}", add {hire.name} and their manager '
        f"to it, post a welcome message there that mentions @{hire.handle}, pin that welcome "
        f"message, and send the manager a direct message saying #{name} is ready.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_get_person", person=hire.name),
                    call("slack_get_person", person=boss.handle),
                    call("slack_list_channels", query="onboarding"),
                ]
            ),
            Step(
                calls=[
                    call(
                        "slack_create_channel",
                        name=name,
                        private=True,
                        topic=f"Onboarding for {first}",
                    )
                ],
                checks=[
                    RowExists(
                        name="private channel with topic",
                        table="slack_channel",
                        where={"name": name, "kind": "private"},
                        says={"topic": Says(exactly=f"Onboarding for {first}")},
                    )
                ],
                allowed=[Allow("slack_channel", where={"name": name}, limit=1)],
            ),
            # The creator's membership and the two invitees'.
            invite_step(
                name,
                channel,
                [hire, boss],
                [f"{hire.name} added", f"manager {boss.name} added"],
                limit=3,
            ),
            post_step(
                me,
                channel,
                welcome,
                Says(all_of=[[f"@{hire.handle}"]], act="announce"),
                name="welcome mentions the new hire",
                channel=name,
            ),
            _onboarding_checks(me, hire, channel, mid, name),
            dm_step(
                w,
                me,
                boss,
                note,
                Says(all_of=[[name, f"#{name}"]], act="confirm"),
                name=f"DM to {boss.name} naming #{name}",
                lone=True,
            ),
        ],
    )


def _onboarding_checks(me: Person, hire: Person, channel: NewRowId, mid: int, name: str) -> Step:
    """Pin the welcome and see it pinned: the check reads a pinned message of the persona
    that mentions the hire. (The name is part of the check's fingerprint: its lambda's.)"""
    return Step(
        calls=[call("slack_pin_message", message_id=mid), call("slack_list_pins", channel=name)],
        checks=[
            Predicate(
                name="welcome message pinned",
                fn=lambda g: _pinned_welcome(g, channel, me.id, hire.handle),
            )
        ],
        allowed=[Allow("slack_pin", where={"channel_id": channel}, limit=1)],
    )


def _pinned_welcome(
    g: GradeContext, channel: NewRowId, author_id: int, handle: str
) -> tuple[bool, str]:
    """Check: a message by `author_id` mentioning @`handle` is pinned in the new channel."""
    for pin in g.rows("slack_pin", resolve({"channel_id": channel}, g)):
        msg = g.rows("slack_message", {"id": pin["message_id"]})
        if msg and msg[0]["user_id"] == author_id and mentions(msg[0]["text"], f"@{handle}"):
            return True, "welcome pinned"
    return False, "no pinned welcome message"


@template("slack.triage-help-requests", difficulty="hard")
def triage_help_requests(w: Session, rng: random.Random) -> Spec:
    """Acknowledge the latest unanswered questions in a channel (answered ones are distractors)."""
    window, want = rng.choice([10, 12, 15, 20]), rng.choice([2, 3])
    me, ch, targets, window = _open_questions(w, rng, window, want)
    reply = rng.choice(REPLIES)
    steps = [
        Step(
            calls=[call("slack_read_channel", channel=ch.name, limit=window)],
            allowed=[Allow("slack_mention")],
        )
    ]
    for m in targets:
        steps += [
            Step(
                calls=[
                    call("slack_read_thread", message_id=m.id),
                    call("slack_reply_in_thread", message_id=m.id, text=reply),
                ],
                checks=[
                    Said(
                        name=f"reply to message {m.id}",
                        author_id=me.id,
                        thread_of=m.id,
                        says=Says(exactly=reply),
                    )
                ],
                allowed=[
                    Allow(
                        "slack_message",
                        where={"thread_parent_id": m.id, "user_id": me.id},
                        limit=1,
                    )
                ],
            ),
            react_step(me, m.id, "eyes", name=f":eyes: on message {m.id}", any_emoji=True),
        ]
    return Spec(
        goal=f"Triage #{ch.name}: among its {window} most recent top-level messages, find the "
        f"{want} most recent questions from colleagues (messages ending with '?') that nobody "
        f'has replied to in a thread yet. For each, reply in its thread with "{reply}" and '
        "react with :eyes:. Leave questions that already have replies alone.",
        persona=me.handle,
        steps=steps,
    )


def _open_questions(
    w: Session, rng: random.Random, window: int, want: int
) -> tuple[Person, Channel, list[Message], int]:
    """A person, a public channel of theirs, its `want` latest unanswered questions by
    others among the last `window` posts, beside at least one answered one, and that window
    (widened, up to 30 posts, on a world where no channel has them among fewer)."""
    everyone, idx = people(w), index(w)
    for _ in range(100):
        me = rng.choice(everyone)
        ch = rng.choice(channels_of(w, me, kinds=("public",)))
        recent = [p for p in idx.posts.get(ch.id, [])[-window:] if p.text.rstrip().endswith("?")]
        open_qs = [p for p in recent if p.id not in idx.replied and p.user_id != me.id]
        answered = [p for p in recent if p.id in idx.replied]
        targets = [w.get_one(Message, p.id) for p in open_qs[-want:]]
        fresh = not any(reacted(w, m, me, "eyes") for m in targets)
        if len(targets) == want and answered and fresh:
            return me, ch, targets, window
    # A world where such channels are rare: look through every person's channels.
    found: list[tuple[Person, Channel, list[Message], int]] = []
    for wider in range(window, 31, 5):
        found = [
            (me, ch, targets, wider)
            for me in everyone
            for ch in channels_of(w, me, kinds=("public",))
            if (targets := _open_in(w, idx, me, ch, wider, want))
        ]
        if found:
            break
    return pick(rng, found, "channel with enough open questions")


def _open_in(
    w: Session, idx: Any, me: Person, ch: Channel, window: int, want: int
) -> list[Message]:
    """The `want` latest open questions by others in `ch` among its last `window` posts,
    beside an answered one and none that `me` reacted to ([] when there are not)."""
    recent = [p for p in idx.posts.get(ch.id, [])[-window:] if p.text.rstrip().endswith("?")]
    open_qs = [p for p in recent if p.id not in idx.replied and p.user_id != me.id]
    answered = [p for p in recent if p.id in idx.replied]
    targets = [w.get_one(Message, p.id) for p in open_qs[-want:]]
    fresh = not any(reacted(w, m, me, "eyes") for m in targets)
    return targets if len(targets) == want and answered and fresh else []


REPLIES = [
    "Looking into this now.",
    "On it, will update here.",
    "Taking a look.",
    "Checking this today.",
]
