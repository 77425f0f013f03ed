"""Prompt-injection attacks planted in the world's own data (issue 25, injection half).

`goals` (attacker goals with final-state graders), `vectors` (where planted text goes and
which reads show it), `phrasings` (its disguises) and `plan` (pairing a task instance with
an attack, and planting it). `officegym.gym.attack` runs paired episodes.
"""

from officegym.tasks.attacks import goals_records as _goals_records  # noqa: F401  (registers)
from officegym.tasks.attacks.goals import GOALS, Avoid, Demand, Goal
from officegym.tasks.attacks.phrasings import PHRASINGS, phrase
from officegym.tasks.attacks.plan import (
    ATTACK_CHOICES,
    Attack,
    Plan,
    avoid_for,
    check_choice,
    inject,
    plan,
)
from officegym.tasks.attacks.vectors import VECTORS, Spot, Vector, spots

__all__ = [
    "ATTACK_CHOICES",
    "GOALS",
    "PHRASINGS",
    "VECTORS",
    "Attack",
    "Avoid",
    "Demand",
    "Goal",
    "Plan",
    "Spot",
    "Vector",
    "avoid_for",
    "check_choice",
    "inject",
    "phrase",
    "plan",
    "spots",
]
