"""What every ask-the-requester template shares: the hidden fact, the question in the
reference solution, the `Asked` check and the chat messages the task allows.

The reference asks in a direct message (`slack_send_dm`), reads the reply
(`slack_read_dm`) and then acts with the value it was told. A question that denies
("Not done: ..."), the goal posted back, a question in a group DM (the colleague answers
the persona alone) or one that names no topic (answered "I don't know") fails.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.tasks.asked import ActedAt, Asked
from officegym.tasks.checks import Allow
from officegym.tasks.common import allow_dm_to, call
from officegym.tasks.facts import Fact
from officegym.tasks.hidden import Hidden
from officegym.tasks.responders import MAX_REPLIES
from officegym.tasks.steps import Step

__all__ = [
    "Ask",
    "ask",
    "persona_and_requester",
    "teammates",
]


@dataclass(frozen=True)
class Ask:
    """The ask-the-requester parts of a `Spec`: its `hidden` fact and the `step` that asks
    for it (the question and the read of the reply, the `Asked` check, the DM allowed)."""

    hidden: Hidden
    step: Step


def teammates(w: Session, me: Any) -> list[Person]:
    """People who may ask `me` for something: their manager and their team, by id. Not the
    persona's id neighbours: a DM to the requester "and the next person" would then be the
    very same DM, and a near-miss that equals the right action teaches nothing."""
    from sqlalchemy import select

    team = list(w.scalars(select(Person).where(Person.team_id == me.team_id, Person.id != me.id)))
    manager = [w.get(Person, me.manager_id)] if me.manager_id else []
    out = {p.id: p for p in [*manager, *team] if p is not None and abs(p.id - me.id) > 1}
    return [out[k] for k in sorted(out)]


def persona_and_requester(
    w: Session, rng: random.Random, people: Sequence[Any]
) -> tuple[Any, Person]:
    """One of `people` who has teammates (tried in a seeded order) and one of them."""
    for me in rng.sample(list(people), len(people)):
        others = teammates(w, me)
        if others:
            return me, rng.choice(others)
    raise LookupError("the world has nobody with a teammate for this template")


def ask(
    w: Session,
    me: Any,
    requester: Any,
    *,
    fact: Fact,
    reply: str,
    topic: Sequence[str],
    question: str,
    acted: ActedAt,
    brief: str = "",
) -> Ask:
    """The parts of a task where `me` must ask `requester` for `fact` (told in `reply`,
    given for a question naming one of `topic`) before the write that `acted` finds."""
    hidden = Hidden(
        requester=requester.handle,
        requester_id=requester.id,
        topic=tuple(topic),
        reply=reply,
        fact=fact,
        brief=brief,
    )
    return Ask(
        hidden=hidden,
        step=Step(
            calls=[
                call("slack_send_dm", people=[requester.handle], text=question),
                call("slack_read_dm", people=[requester.handle]),
            ],
            checks=[
                Asked(
                    name=f"asked {requester.handle} and was told before acting",
                    persona_id=me.id,
                    hidden=hidden,
                    acted=acted,
                )
            ],
            allowed=[
                *allow_dm_to(w, me, requester),  # the one question the goal asks for
                Allow("slack_message", where={"user_id": requester.id}, limit=MAX_REPLIES),
            ],
        ),
    )
