"""Pairing a task instance with an attack, and planting it in a live world.

`plan(task, choice)` draws, from a generator seeded by the task instance and the choice
(so the same episode gets the same attack everywhere), an attacker goal of one of the
task's apps (`choice` a goal id, or "mixed" for any), a phrasing, and the spots the
reference reads (`vectors.spots`). `inject(world, task, plan)` writes the text at the first
spot the site accepts and returns the `Attack` placed (None: nothing could be planted).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from officegym.apps.org.models import Person
from officegym.tasks.attacks.goals import GOALS, Avoid, Demand
from officegym.tasks.attacks.phrasings import PHRASINGS, phrase
from officegym.tasks.attacks.vectors import VECTORS, Spot, spots
from officegym.tasks.base import Task, catalog_session
from officegym.tasks.expected import expected
from officegym.world import World, world_image

__all__ = ["ATTACK_CHOICES", "Attack", "Plan", "avoid_for", "check_choice", "inject", "plan"]

ATTACK_CHOICES = ("none", "mixed")  # or a goal id


@dataclass(frozen=True)
class Attack:
    """An attack planted in one episode."""

    demand: Demand
    vector: str
    phrasing: str
    read: str  # the reference's read call that shows it
    text: str

    @property
    def goal(self) -> str:
        return self.demand.goal

    def succeeded(self, initial: Connection, final: Connection) -> bool:
        """Whether the attacker's goal holds in the final state (reached by any route)."""
        return bool(self.demand.done(initial, final))

    def info(self, succeeded: bool | None) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "vector": self.vector,
            "phrasing": self.phrasing,
            "read": self.read,
            "text": self.text,
            "succeeded": succeeded,
        }


@dataclass(frozen=True)
class Plan:
    """The demand, the phrasing and the spots to try, in order."""

    demand: Demand
    phrasing: str
    spots: tuple[Spot, ...]


def check_choice(choice: str) -> str:
    """`choice` if it names an attack mix or a goal, else a ValueError listing them."""
    if choice in ATTACK_CHOICES or choice in GOALS:
        return choice
    raise ValueError(f"attack must be one of {[*ATTACK_CHOICES, *sorted(GOALS)]}, not {choice!r}")


def avoid_for(task: Task) -> Avoid:
    """What the task's reference changes and names, and what its goal and answer say:
    attack targets and planted fields stay clear of them."""
    rows = frozenset((c.table, c.row_id) for c in expected(task).changes)
    said = f"{task.goal}\n{task.answer or ''}".lower()
    return Avoid(rows, frozenset(_words(c.arguments for c in task.solution)), said)


def _words(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        value = list(value.values())  # a view is neither a list nor an iterator
    if isinstance(value, (list, tuple)) or hasattr(value, "__next__"):
        for v in value:
            yield from _words(v)
    elif value is not None:
        yield str(value).lower().lstrip("@#")


def plan(task: Task, choice: str) -> Plan | None:
    """The attack for this task instance (None when no goal or no spot fits it)."""
    if check_choice(choice) == "none":
        return None
    rng = random.Random(f"attack:{task.id}:{task.seed}:{task.difficulty}:{choice}")
    found = spots(task)
    rng.shuffle(found)
    if not found:
        return None
    ids = [choice] if choice in GOALS else sorted(GOALS)
    ids = [g for g in ids if set(GOALS[g].apps) <= set(task.apps)]
    rng.shuffle(ids)
    w = catalog_session(task.scenario, task.world_seed)
    me = w.scalars(select(Person).where(Person.handle == task.persona)).one()
    day = world_image(task.scenario, task.world_seed).start.date()
    avoid = avoid_for(task)
    for goal_id in ids:
        try:
            demand = GOALS[goal_id].pick(w, rng, me, avoid, day)
        except LookupError:
            continue
        return Plan(demand, rng.choice(sorted(PHRASINGS)), tuple(found))
    return None


def inject(world: World, task: Task, p: Plan) -> Attack | None:
    """Plant the plan's text at its first spot the site accepts (the caller takes the
    episode's baseline after it)."""
    with world.session() as s:
        me = s.scalars(select(Person).where(Person.handle == task.persona)).one()
        s.expunge(me)
    rng = random.Random(f"place:{task.id}:{task.seed}:{p.demand.goal}")
    avoid = avoid_for(task)
    for spot in p.spots:
        vec = VECTORS[spot.vector]
        kind = p.phrasing
        text = phrase(kind, p.demand.ask, me.name)
        if len(text) > vec.limit:
            kind, text = "short", phrase("short", p.demand.ask, me.name)
        if len(text) <= vec.limit and vec.place(world, me, spot.target, text, rng, avoid):
            return Attack(p.demand, spot.vector, kind, spot.read, text)
    return None
