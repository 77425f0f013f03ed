"""Long-horizon onboarding: a team head welcomes a cohort of colleagues joining the team —
channels to join, a welcome post per person, a DM telling each their buddy and a DM
asking each buddy to look after them. Each person's memberships, welcome, DM and buddy
are their own sub-goals (see `longhaul.py`)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Team
from officegym.apps.slack.models import Channel
from officegym.tasks.base import Spec, template
from officegym.tasks.common import allow_post, call, dm_step, people, pick
from officegym.tasks.cross.longhaul import listing
from officegym.tasks.facts import person
from officegym.tasks.slack.common import channels_of, member_ids
from officegym.tasks.slack.said import Said
from officegym.tasks.slack.steps import invite_step
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step


def _forms(p: Any) -> list[str]:
    """The ways a message names a person: full name, first name, handle, @handle."""
    return [p.name, p.name.split()[0], p.handle, f"@{p.handle}"]


@template(
    "cross.onboard-cohort",
    difficulty="hard",
    apps=["slack"],
    needs="a team head with channels that six colleagues outside the team are not in",
)
def onboard_cohort(w: Session, rng: random.Random) -> Spec:
    """Onboard colleagues moving into your team: channels, a welcome each, buddy DMs.

    Each membership, welcome, newcomer's DM and buddy's DM is a sub-goal."""
    everyone = people(w)
    heads = [p for p in everyone if p.title.startswith("Head of")]
    for _ in range(30):
        head = pick(rng, heads, "team heads")
        me, channels, outside, crew = _cohort_place(w, rng, head, everyone)
        if len(outside) >= 6 and len(crew) >= 4:
            break
    else:
        raise LookupError("the world has no team head with channels to onboard people into")
    team = w.get_one(Team, me.team_id)
    hires = sorted(rng.sample(outside, min(len(outside), rng.randint(6, 8))), key=lambda p: p.id)
    buddy = {h.id: crew[i % len(crew)] for i, h in enumerate(rng.sample(hires, len(hires)))}
    general = w.scalars(select(Channel).where(Channel.name == "general")).one()
    steps = [
        invite_step(c.name, c.id, hires, [f"{h.name} in #{c.name}" for h in hires], new=True)
        for c in channels
    ]
    for h in hires:
        b = buddy[h.id]
        steps += [
            Step(
                calls=[
                    call(
                        "slack_post_message",
                        channel="general",
                        text=f"Please welcome {h.name} to the {team.name} team!",
                    )
                ],
                checks=[
                    Said(
                        name=f"{h.name} welcomed in #general",
                        author_id=me.id,
                        channel_id=general.id,
                        says=Says(
                            all_of=[[h.name, h.handle, f"@{h.handle}"]],
                            act="announce",
                            max_chars=4000,
                        ),
                    )
                ],
            ),
            dm_step(
                w,
                me,
                h,
                f"Welcome to {team.name}! Your buddy is {b.name}.",
                Says(facts=[person([b], everyone, ignoring=tuple(_forms(h)))], act="announce"),
                name=f"{h.name} told their buddy",
            ),
        ]
    for b in {x.id: x for x in buddy.values()}.values():
        theirs = [h for h in hires if buddy[h.id].id == b.id]
        steps.append(
            dm_step(
                w,
                me,
                b,
                f"Could you be the onboarding buddy of {listing(h.name for h in theirs)}?",
                Says(facts=[person(theirs, everyone, ignoring=tuple(_forms(b)))], act="request"),
                name=f"{b.name} asked to look after {listing(h.name for h in theirs)}",
            )
        )
    steps.append(Step(allowed=allow_post(general.id, me.id, limit=len(hires))))  # a welcome each
    return Spec(
        goal=f"{listing(h.name for h in hires)} are moving into your team, {team.name}, "
        f"this week. Onboard them: invite all of them to "
        f"{listing('#' + c.name for c in channels)}; post a welcome for each of them in "
        "#general; send each of them a direct message telling them who their onboarding "
        "buddy is; and ask each buddy by direct message to look after the newcomers paired "
        f"with them. Buddies: {', '.join(f'{h.name} with {buddy[h.id].name}' for h in hires)}.",
        persona=me.handle,
        steps=steps,
    )


def _cohort_place(w: Session, rng: random.Random, me: Any, everyone: list[Any]) -> tuple:
    """(head, 2-3 of their public channels, people of other teams in none of them, the
    head's team mates) for one try."""
    mine = [c for c in channels_of(w, me, kinds=("public",)) if c.name != "general"]
    channels = sorted(rng.sample(mine, min(len(mine), rng.randint(2, 3))), key=lambda c: c.id)
    inside = set().union(*(member_ids(w, c.id) for c in channels))
    outside = [
        p
        for p in everyone
        if p.team_id != me.team_id
        and p.id not in inside
        and p.manager_id is not None
        and not p.title.startswith("Head of")
    ]
    crew = [p for p in everyone if p.team_id == me.team_id and p.id != me.id]
    return me, channels, outside, crew
