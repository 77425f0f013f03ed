"""Instance stores: an instance read from the store is the one `make_task` builds (the
same fingerprint, the same expected end state, the same grades), an env with
``instance_pool=True`` draws only stored seeds of its split, the same ones for the same
reset seed, and a missing store is an error that names the command that builds it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.tasks import instances as inst
from officegym.tasks import make_task
from officegym.tasks.expected import _CACHE, Expected, expected
from officegym.tasks.fingerprints import canon, task_print
from officegym.tasks.splits import split_of
from officegym.tasks.validate import replay
from officegym.world import World, world_image

TEMPLATES = ("sheets.append-expense", "crm.escalate-case")  # checks built as closures
SEEDS = 4


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder holding a store of `TEMPLATES` x seeds 0..3 on the default world."""
    world_image("default", 0)  # loaded from the usual cache before the folder moves
    root = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OFFICEGYM_CACHE", str(root))
        inst._OPEN.clear()
        path, built = inst.build_store(TEMPLATES, SEEDS, "default", 0)
        assert path.parent == root and built == SEEDS * len(TEMPLATES)
        yield root
        inst._OPEN.clear()


@pytest.fixture
def store(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> inst.InstanceStore:
    monkeypatch.setenv("OFFICEGYM_CACHE", str(store_dir))
    found = inst.open_store("default", 0)
    assert found is not None
    return found


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_a_stored_instance_is_the_built_one_and_grades_alike(
    store: inst.InstanceStore, world: World, template_id: str
) -> None:
    for seed in range(SEEDS):
        built = make_task(template_id, seed)
        _CACHE.clear()
        stored = store.task(template_id, seed, built.difficulty)
        assert stored is not None and stored is not built
        assert task_print(stored) == task_print(built) and split_of(stored) == split_of(built)
        assert _plain(expected(stored)) == _plain(expected(built))  # stored, not replayed
        for calls, answer in ((stored.solution, stored.answer), ((), None)):
            mine, _ = replay(world, stored, calls, answer)
            theirs, _ = replay(world, built, calls, answer)
            assert (mine.reward, mine.passed) == (theirs.reward, theirs.passed)
        assert mine.passed is False and theirs.reward < 1.0  # doing nothing fails


def _plain(found: Expected) -> object:
    """An expected end state as plain data (its freedoms' predicates by what they hold)."""
    return canon([found.steps, found.changes, found.errors, found.freedoms.declared])


def test_building_again_keeps_what_is_stored(store: inst.InstanceStore) -> None:
    path, built = inst.build_store(TEMPLATES[:1], SEEDS, "default", 0)
    assert (path, built) == (store.path, 0)


def test_a_pool_env_draws_stored_train_seeds_the_same_for_the_same_reset_seed(
    store: inst.InstanceStore,
) -> None:
    seeds = store.seeds(TEMPLATES[0], make_task(TEMPLATES[0], 0).difficulty, "train")
    assert seeds and set(seeds) <= set(range(SEEDS))
    drawn = []
    for _ in range(2):
        env = OfficeEnv(task=TEMPLATES[0], instance_pool=True, max_steps=40)
        result = [run_episode(env, OracleAgent(), seed=s) for s in range(6)]
        assert all(r.passed for r in result)
        drawn.append([r.task_seed for r in result])
        env.close()
    assert drawn[0] == drawn[1] and set(drawn[0]) <= set(seeds)


def test_a_pool_env_without_a_store_names_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world_image("default", 0)
    monkeypatch.setenv("OFFICEGYM_CACHE", str(tmp_path))
    monkeypatch.setattr(inst, "_OPEN", {})
    with pytest.raises(ValueError, match="officegym instances build --app crm"):
        OfficeEnv(app="crm", instance_pool=True)
