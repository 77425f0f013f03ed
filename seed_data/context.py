"""What every generator receives: the scenario, seeded randomness, and what earlier
generators made (people first; apps may add their own entries to `made`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from officegym.apps.org.models import Person
from officegym.seed_data.scenario import Scenario


@dataclass
class SeedContext:
    scenario: Scenario
    fake: Faker
    rng: random.Random
    seed: int = 0  # the world seed, for generators that keep a random stream of their own
    people: list[Person] = field(default_factory=list)
    made: dict[str, Any] = field(default_factory=dict)
