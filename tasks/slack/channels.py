"""Slack templates about channels and profile: create, join, invite, status, and a
request for a private channel you cannot reach."""

from __future__ import annotations

import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person, Team
from officegym.apps.slack.models import Channel, Status
from officegym.seed_data.slack_text import DAYS, FEATURES, PROJECTS, STATUSES
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, RowExists
from officegym.tasks.common import call, dm_step, new_channel, people, pick, post_step
from officegym.tasks.mutants import Equivalent
from officegym.tasks.slack.common import channels_of, member_ids
from officegym.tasks.slack.steps import invite_step
from officegym.tasks.statements import Says, rivals, with_plurals
from officegym.tasks.steps import Step


@template("slack.create-channel", difficulty="easy")
def create_channel(w: Session, rng: random.Random) -> Spec:
    """Create a public or private channel with a given name and topic."""
    me = pick(rng, people(w), "people")
    feature = rng.choice(FEATURES)
    name = f"{rng.choice(PROJECTS)}-{feature.split()[0].lower()}-{rng.randint(10, 99)}"
    private = rng.random() < 0.5
    topic = f"Working group for the {feature}"
    kind = "private" if private else "public"
    created = new_channel(name=name)
    return Spec(
        goal=f'Create a {kind} channel named #{name} with the topic "{topic}".',
        persona=me.handle,
        steps=[
            Step(calls=[call("slack_list_channels", query=name)]),
            Step(
                calls=[call("slack_create_channel", name=name, private=private, topic=topic)],
                checks=[
                    RowExists(name=f"#{name} exists", table="slack_channel", where={"name": name}),
                    RowExists(
                        name=f"#{name} is {kind}",
                        table="slack_channel",
                        where={"name": name, "kind": kind},
                    ),
                    RowExists(
                        name="topic set",
                        table="slack_channel",
                        where={"name": name},
                        says={"topic": Says(exactly=topic)},
                    ),
                ],
                allowed=[
                    Allow("slack_channel", where={"name": name}, limit=1),
                    Allow(
                        "slack_membership",
                        where={"person_id": me.id, "channel_id": created},
                        limit=1,
                    ),
                ],
            ),
        ],
    )


@template("slack.set-status", difficulty="easy")
def set_status(w: Session, rng: random.Random) -> Spec:
    """Set your chat status text and emoji."""
    me = pick(rng, people(w), "people")
    current = w.scalar(select(Status).where(Status.person_id == me.id))
    choices = [s for s in STATUSES if current is None or s[0] != current.text]
    text, emoji = rng.choice(choices)
    until = rng.choice(DAYS)
    text = f"{text} until {until}"
    return Spec(
        goal=f'Set your status to "{text}" with the :{emoji}: emoji.',
        persona=me.handle,
        steps=[
            Step(
                calls=[call("slack_set_status", text=text, emoji=emoji)],
                checks=[
                    RowExists(
                        name="status text and emoji",
                        table="slack_status",
                        where={"person_id": me.id, "emoji": emoji},
                        says={"text": Says(exactly=text)},
                    )
                ],
                allowed=[
                    Allow(
                        "slack_status",
                        kinds=("insert", "update"),
                        where={"person_id": me.id},
                        limit=1,
                    )
                ],
            )
        ],
    )


@template("slack.join-and-post", difficulty="medium")
def join_and_post(w: Session, rng: random.Random) -> Spec:
    """Join a public channel you are not in yet and post a question there."""
    me, ch = _outside_channel(w, rng)
    feature = rng.choice(FEATURES)
    text = f"Hi all, who is the right person to ask about the {feature}?"
    says = Says(
        all_of=[with_plurals([feature])],
        none_of=with_plurals(rivals(FEATURES, feature)),
        act="request",
    )
    return Spec(
        goal=f"Ask in #{ch.name} who the right person is to ask about the {feature}. "
        "You are not a member of that channel yet.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_get_channel_info", channel=ch.name),
                    call("slack_join_channel", channel=ch.name),
                ],
                checks=[
                    RowExists(
                        name=f"member of #{ch.name}",
                        table="slack_membership",
                        where={"channel_id": ch.id, "person_id": me.id},
                    )
                ],
                allowed=[
                    Allow(
                        "slack_membership", where={"channel_id": ch.id, "person_id": me.id}, limit=1
                    )
                ],
            ),
            post_step(
                me, ch.id, text, says, name=f"question posted in #{ch.name}", channel=ch.name
            ),
        ],
    )


def _outside_channel(w: Session, rng: random.Random) -> tuple[Person, Channel]:
    """A person and an active public channel they are not a member of."""
    everyone = people(w)
    public = w.scalars(
        select(Channel)
        .where(Channel.kind == "public", Channel.is_archived.is_(False))
        .order_by(Channel.id)
    ).all()
    for _ in range(50):
        me = rng.choice(everyone)
        mine = {c.id for c in channels_of(w, me)}
        outside = [c for c in public if c.id not in mine]
        if outside:
            return me, rng.choice(outside)
    raise LookupError("nobody is outside a public channel")


@template("slack.invite-team", difficulty="hard")
def invite_team(w: Session, rng: random.Random) -> Spec:
    """Invite every member of a team who is missing from a channel, then welcome them."""
    me, ch, team, missing = _partly_present_team(w, rng)
    text = f"Welcome to #{ch.name}, {team.name} folks! " + " ".join(f"@{p.handle}" for p in missing)
    says = Says(all_of=[WELCOMES, *([f"@{p.handle}"] for p in missing)], act="announce")
    return Spec(
        goal=f"Make sure everyone in the {team.name} team is a member of #{ch.name}: invite "
        "those who are missing (only them), then post a welcome message there that "
        "mentions each of them.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_list_people", team=team.slug, limit=100),
                    call("slack_get_channel_info", channel=ch.name),
                ]
            ),
            invite_step(
                ch.name, ch.id, missing, [f"{p.name} is in #{ch.name}" for p in missing], each=True
            ),
            post_step(
                me,
                ch.id,
                text,
                says,
                name="welcome message mentions each newcomer",
                channel=ch.name,
            ),
            Step(
                equivalent=[
                    Equivalent(
                        "text.drop-fact",
                        "the welcome is posted in the channel; naming it there is optional",
                        tool="slack_post_message",
                        words=(f"#{ch.name}",),
                    )
                ]
            ),
        ],
    )


def _partly_present_team(
    w: Session, rng: random.Random
) -> tuple[Person, Channel, Team, list[Person]]:
    """A person, a public channel of theirs, a team with some (2+) but not all of its
    members missing from it, and those missing members."""
    teams = w.scalars(select(Team).order_by(Team.id)).all()
    for _ in range(100):
        me = rng.choice(people(w))
        ch = rng.choice(channels_of(w, me, kinds=("public",)))
        team = rng.choice(teams)
        inside = member_ids(w, ch.id)
        team_people = w.scalars(
            select(Person).where(Person.team_id == team.id).order_by(Person.id)
        ).all()
        missing = [p for p in team_people if p.id not in inside]
        if 2 <= len(missing) < len(team_people):
            return me, ch, team, missing
    raise LookupError("no channel with a partly present team")


@template("slack.no-access-request", difficulty="medium")
def no_access_request(w: Session, rng: random.Random) -> Spec:
    """Asked to post in a private channel you are not in: tell the asker instead (the
    channel is invisible to you, and no other channel will do)."""
    me, channel, asker = _outsider_of_private(w, rng)
    feature = rng.choice(FEATURES)
    update = f"The {feature} review notes are ready."
    first = asker.name.split()[0]
    reply = (
        f"Hi {first}, I can't post in #{channel.name}: I'm not a member and can't see it. "
        "Could you add me, or post it there yourself?"
    )
    return Spec(
        goal=f'{asker.name} asked you to post "{update}" in #{channel.name}. Post it there; '
        f"if that is not possible, send {first} a direct message saying why instead.",
        persona=me.handle,
        steps=[
            Step(calls=[call("slack_list_channels", query=channel.name)]),
            dm_step(
                w,
                me,
                asker,
                reply,
                Says(all_of=[[channel.name, f"#{channel.name}"]], act="refuse"),
                name=f"told {asker.name} why not, by DM",
                lone=True,
            ),
        ],
    )


WELCOMES = ["welcome", "welcomed", "glad to have you", "great to have you", "good to have you"]


def _outsider_of_private(w: Session, rng: random.Random) -> tuple[Person, Channel, Person]:
    """A person, an active private channel they are not in, and a member of it to ask."""
    private = w.scalars(
        select(Channel)
        .where(Channel.kind == "private", Channel.is_archived.is_(False))
        .order_by(Channel.id)
    ).all()
    everyone = people(w)
    for _ in range(50):
        channel = rng.choice(private)
        inside = member_ids(w, channel.id)
        outside = [p for p in everyone if p.id not in inside]
        if outside and inside:
            asker = w.get_one(Person, rng.choice(sorted(inside)))
            return rng.choice(outside), channel, asker
    raise LookupError("no private channel with someone outside it")
