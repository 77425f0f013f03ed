"""Which world an episode runs on, for tools mode and browser mode alike.

By default an env has one world, ``(scenario, world_seed)``, and nothing here draws from
its random generator, so its seeded resets are what they always were. With
``world_seeds`` (a count ``n`` for seeds ``0..n-1``, a range or a list) and/or
``scenarios`` (names), every reset first draws one world of that set from the env's
`np_random` (so ``reset(seed=...)`` fixes the world as it fixes the task), and the
instances multiply: each template builds different tasks on each world.
``reset(options={"world_seed": 3, "scenario": "startup"})`` picks one instead (any seed
or scenario, in the set or not).

Worlds are costly (building one takes seconds; a live one holds its database, and its
grader's copy, in memory), so the env keeps the `cache` most recently used live worlds
(`WorldPool`, an LRU) and closes the rest; the images stay cached per process
(`officegym.world.world_image`) and on disk.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from officegym.world import World, world_image

__all__ = ["WORLD_OPTION_KEYS", "WorldKey", "WorldPool", "world_set"]

WorldKey = tuple[str, int]  # (scenario, world seed)
WORLD_OPTION_KEYS = frozenset({"scenario", "world_seed"})
DEFAULT_CACHE = 4


def world_set(
    scenario: str,
    world_seed: int,
    world_seeds: int | Iterable[int] | None = None,
    scenarios: str | Sequence[str] | None = None,
) -> tuple[WorldKey, ...]:
    """The worlds an env draws from: every scenario of `scenarios` (default: `scenario`)
    with every seed of `world_seeds` (default: `world_seed`), scenarios first."""
    _check_seed("world_seed", world_seed)
    if scenarios is None:
        names: tuple[str, ...] = (scenario,)
    elif isinstance(scenarios, str):
        names = (scenarios,)
    else:
        names = tuple(scenarios)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"scenarios must be scenario names, not {scenarios!r}")
    seeds = _seeds(world_seed, world_seeds)
    keys = tuple((n, s) for n in names for s in seeds)
    if len(set(keys)) != len(keys):
        raise ValueError(f"the worlds to draw from repeat: {list(keys)}")
    return keys


def _seeds(world_seed: int, world_seeds: int | Iterable[int] | None) -> tuple[int, ...]:
    if world_seeds is None:
        return (world_seed,)
    if isinstance(world_seeds, int) and not isinstance(world_seeds, bool):
        if world_seeds < 1:
            raise ValueError(f"world_seeds as a count must be at least 1, not {world_seeds}")
        return tuple(range(world_seeds))
    try:
        seeds = tuple(world_seeds)
    except TypeError:
        raise ValueError(
            f"world_seeds must be a count, a range or a list of ints, not {world_seeds!r}"
        ) from None
    if not seeds:
        raise ValueError("world_seeds is empty")
    for s in seeds:
        _check_seed("world_seeds", s)
    return tuple(int(s) for s in seeds)


def _check_seed(name: str, seed: Any) -> None:
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"{name} must hold non-negative ints, not {seed!r}")


@dataclass
class WorldPool:
    """The worlds of an env: which one a reset draws, and the live ones kept (an LRU of at
    most `cache`, the least recently used closed first)."""

    worlds: tuple[WorldKey, ...]
    sampled: bool  # draw a world per reset (False: always worlds[0], no draw)
    cache: int = DEFAULT_CACHE
    make: Callable[[WorldKey], World] = lambda key: World(world_image(*key))

    def __post_init__(self) -> None:
        if not isinstance(self.cache, int) or isinstance(self.cache, bool) or self.cache < 1:
            raise ValueError(f"world_cache must be an int >= 1, not {self.cache!r}")
        self._live: OrderedDict[WorldKey, World] = OrderedDict()

    @classmethod
    def for_env(
        cls,
        scenario: str,
        world_seed: int,
        world_seeds: int | Iterable[int] | None,
        scenarios: str | Sequence[str] | None,
        cache: int = DEFAULT_CACHE,
    ) -> WorldPool:
        """The pool of an env's constructor arguments (sampling only if either set is given)."""
        from officegym.seed_data.scenario import scenario_path

        keys = world_set(scenario, world_seed, world_seeds, scenarios)
        for name in dict.fromkeys(k[0] for k in keys):
            scenario_path(name)  # an unknown scenario fails here, naming the known ones
        sampled = world_seeds is not None or scenarios is not None
        return cls(keys, sampled, cache)

    def draw(self, rng: np.random.Generator, options: Mapping[str, Any]) -> WorldKey:
        """The world of a reset: one draw from `rng` when sampling (whatever the options say,
        so a seeded sequence of resets does not depend on them), then ``scenario`` and
        ``world_seed`` options override the drawn one's parts."""
        key = self.worlds[int(rng.integers(len(self.worlds)))] if self.sampled else self.worlds[0]
        scenario = options.get("scenario", key[0])
        seed = options.get("world_seed", key[1])
        if not isinstance(scenario, str) or not scenario:
            raise ValueError(f"scenario must be a scenario name, not {scenario!r}")
        _check_seed("world_seed", seed)
        return scenario, int(seed)

    def get(self, key: WorldKey) -> World:
        """The live world of `key` (made on first use); the least recently used beyond
        `cache` are closed."""
        world = self._live.pop(key, None)
        if world is None:
            world = self.make(key)
        self._live[key] = world
        while len(self._live) > self.cache:
            _, old = self._live.popitem(last=False)
            old.close()
        return world

    @property
    def live(self) -> tuple[WorldKey, ...]:
        """The worlds kept open, least recently used first."""
        return tuple(self._live)

    def close(self) -> None:
        """Close every live world (idempotent)."""
        while self._live:
            self._live.popitem()[1].close()
