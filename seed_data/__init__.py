"""officegym.seed_data: deterministic world generators and scenario files.

`build_image(scenario, seed)` creates a fresh in-memory database and runs every
generator module of this package (a module with `ORDER: int` and
`seed(s, ctx)`; org first, then each app) with Faker and `random.Random` seeded
from (scenario, seed) and a frozen simulated clock, then returns the serialized
database. Same inputs, same bytes, on any machine.
"""

from __future__ import annotations

import importlib
import pkgutil
import random

from faker import Faker
from sqlalchemy.orm import Session

from officegym.world import BuildProgress, WorldImage

__all__ = ["build_image", "generators"]


def generators() -> list:  # list[ModuleType], ordered by their ORDER
    mods = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)]
    return sorted(
        (m for m in mods if hasattr(m, "ORDER") and hasattr(m, "seed")), key=lambda m: m.ORDER
    )


def build_image(
    scenario: str = "default", seed: int = 0, *, progress: BuildProgress | None = None
) -> WorldImage:
    """Build (scenario, seed) from scratch; `officegym.world.world_image` caches this.
    `progress(step, done, total)` is told before each generator runs and once at the end."""
    from officegym.apps import iter_app_modules
    from officegym.changes import install_change_log
    from officegym.clock import SimClock
    from officegym.db import create_schema, engine_for, serialize
    from officegym.seed_data.context import SeedContext
    from officegym.seed_data.scenario import load_scenario

    sc = load_scenario(scenario)
    list(iter_app_modules("models"))
    engine = engine_for("sqlite://")
    create_schema(engine)
    fake = Faker(sc.locale)
    fake.seed_instance(seed)
    ctx = SeedContext(scenario=sc, fake=fake, rng=random.Random(f"{sc.name}:{seed}"), seed=seed)
    with Session(engine, info={"clock": SimClock(sc.date)}) as s:
        gens = generators()
        for done, gen in enumerate(gens):
            if progress is not None:
                progress(gen.__name__.rsplit(".", 1)[-1], done, len(gens))
            gen.seed(s, ctx)
        s.commit()
    if progress is not None:
        progress("done", len(gens), len(gens))
    install_change_log(engine)
    data = serialize(engine)
    engine.dispose()
    return WorldImage(scenario=sc.name, seed=seed, data=data, start=sc.date)
