"""Envs that draw their world per reset: the set of worlds, determinism under reset(seed),
the world in info["task"], options that pick a world, the LRU of live worlds, and envs
without the option drawing exactly as before."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.seeding import np_random
from sqlalchemy import func, inspect, select

from officegym.apps.org.models import Person
from officegym.errors import NotFound
from officegym.gym import OfficeEnv
from officegym.gym.episodes import choose_task
from officegym.gym.worlds import WorldPool, world_set
from officegym.tasks import load_templates, make_task
from officegym.world import World, world_image


@pytest.fixture(scope="module")
def sampled() -> Iterator[OfficeEnv]:
    """A Slack env drawing from default worlds 0 and 1."""
    env = OfficeEnv(app="slack", world_seeds=[0, 1])
    yield env
    env.close()


@pytest.mark.parametrize(
    ("kwargs", "worlds"),
    [
        ({}, [("default", 0)]),
        ({"world_seeds": 3}, [("default", 0), ("default", 1), ("default", 2)]),
        ({"world_seeds": range(4, 6)}, [("default", 4), ("default", 5)]),
        ({"world_seeds": [7, 2]}, [("default", 7), ("default", 2)]),
        ({"scenarios": ["startup", "default"]}, [("startup", 5), ("default", 5)]),
        (
            {"scenarios": "startup", "world_seeds": 2},
            [("startup", 0), ("startup", 1)],
        ),
    ],
)
def test_world_set_reads_counts_ranges_lists_and_scenarios(kwargs, worlds) -> None:
    assert list(world_set("default", 5 if "scenarios" in kwargs else 0, **kwargs)) == worlds


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"world_seeds": 0}, "at least 1"),
        ({"world_seeds": []}, "empty"),
        ({"world_seeds": [1, -2]}, "non-negative"),
        ({"world_seeds": [1, 1]}, "repeat"),
        ({"world_seeds": 2.5}, "count, a range or a list"),
        ({"world_seeds": True}, "count, a range or a list"),
        ({"scenarios": []}, "scenario names"),
    ],
)
def test_a_bad_world_set_is_refused_with_the_reason(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        world_set("default", 0, **kwargs)


def test_an_unknown_scenario_fails_at_construction_naming_the_known_ones() -> None:
    with pytest.raises(NotFound, match=r"no scenario .nope. \(known: default, "):
        OfficeEnv(app="slack", scenarios=["default", "nope"])


def test_the_drawn_world_is_in_info_and_fixed_by_the_reset_seed(sampled: OfficeEnv) -> None:
    first = [sampled.reset(seed=s)[1]["task"] for s in range(8)]
    again = [sampled.reset(seed=s)[1]["task"] for s in range(8)]
    assert first == again
    assert {t["world_seed"] for t in first} == {0, 1}
    assert {t["scenario"] for t in first} == {"default"}
    for info in first[:3]:
        task = make_task(info["id"], info["seed"], info["scenario"], info["world_seed"])
        assert (task.goal, task.persona) == (info["goal"], info["persona"])


def test_each_episode_runs_on_its_drawn_world(sampled: OfficeEnv) -> None:
    """The persona exists and the reference solution passes on the drawn world."""
    for seed in range(6):
        _, info = sampled.reset(seed=seed)
        world = sampled.world
        assert (world.image.scenario, world.image.seed) == ("default", info["task"]["world_seed"])
        assert sampled.task is not None
        for call in sampled.task.solution:
            _, _, _, _, step = sampled.step({"tool": call.name, "arguments": call.arguments})
            assert step["ok"], step
        _, reward, terminated, _, _ = sampled.step(
            {"tool": "submit", "arguments": {"answer": sampled.task.answer or ""}}
        )
        assert terminated and reward == 1.0


def test_options_pick_the_world_even_outside_the_set(sampled: OfficeEnv) -> None:
    _, info = sampled.reset(seed=0, options={"world_seed": 1})
    assert info["task"]["world_seed"] == 1 == sampled.world.image.seed
    _, info = sampled.reset(seed=0, options={"scenario": "startup", "world_seed": 0})
    assert (info["task"]["scenario"], info["task"]["world_seed"]) == ("startup", 0)
    with sampled.world.session() as s:
        assert s.scalar(select(func.count()).select_from(Person)) == 25
    with pytest.raises(ValueError, match="world_seed must hold non-negative ints"):
        sampled.reset(options={"world_seed": -1})


def test_an_env_without_the_option_draws_only_what_it_always_drew() -> None:
    """No world draw: a seeded reset picks the task `choose_task` picks from a fresh
    generator of that seed, as before world sampling existed."""
    env = OfficeEnv(app="slack")
    assert not env.worlds.sampled
    for seed in (0, 3, 11):
        _, info = env.reset(seed=seed)
        rng, _ = np_random(seed)
        tid, _, task_seed, _ = choose_task(
            rng, env.templates, "train", {}, scenario="default", world_seed=0
        )
        assert (info["task"]["id"], info["task"]["seed"]) == (tid, task_seed)
        assert (info["task"]["scenario"], info["task"]["world_seed"]) == ("default", 0)
    env.close()


def test_the_pool_keeps_the_most_recently_used_worlds_and_closes_the_rest() -> None:
    made: dict[tuple[str, int], World] = {}

    def make(key: tuple[str, int]) -> World:
        made[key] = World(world_image(*key))
        return made[key]

    keys = [("default", 0), ("default", 1), ("startup", 0)]
    pool = WorldPool(tuple(keys), sampled=True, cache=2, make=make)
    a = pool.get(keys[0])
    pool.get(keys[1])
    assert pool.get(keys[0]) is a  # kept, not rebuilt
    pool.get(keys[2])  # evicts keys[1], the least recently used
    assert pool.live == (keys[0], keys[2])
    evicted = made[keys[1]]
    assert inspect(evicted.engine).get_table_names() == []  # closed: its memory freed
    assert inspect(a.engine).get_table_names()
    assert pool.get(keys[1]) is not evicted and pool.live == (keys[2], keys[1])
    pool.close()
    assert pool.live == ()
    with pytest.raises(ValueError, match="world_cache"):
        WorldPool(tuple(keys), sampled=True, cache=0)


def test_check_env_passes_on_an_env_that_samples_worlds() -> None:
    env = gymnasium.make("officegym/slack-v0", world_seeds=2, world_cache=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert len(env.unwrapped.worlds.live) == 1
    env.close()


def test_a_world_too_small_for_a_template_leaves_it_out_of_the_draw() -> None:
    """Templates that declare `needs` and cannot build on the startup are never drawn there;
    on the default world they are."""
    declared = {t for t, tpl in load_templates().items() if tpl.needs and tpl.app == "cross"}
    needy = {t for t in declared if not _builds_on_startup(t)}
    assert needy
    env = OfficeEnv(app="cross", scenarios=["startup"])
    drawn = {env.reset(seed=seed)[1]["task"]["id"] for seed in range(60)}
    env.close()
    assert drawn and not drawn & needy
    assert len(drawn) > 10
    default = OfficeEnv(app="cross")
    met = {default.reset(seed=seed)[1]["task"]["id"] for seed in range(60)}
    default.close()
    assert met & needy


def _builds_on_startup(template_id: str) -> bool:
    """Whether the template builds on the startup for one of the seeds an env tries."""
    for seed in range(8):
        try:
            make_task(template_id, seed, "startup", 0)
        except LookupError:
            continue
        return True
    return False
