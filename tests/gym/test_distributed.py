"""Rollouts over Ray: complete, deterministic (the same records as one process with the
same seeds), a killed actor replaced and its episodes retried exactly once, and browser
mode in actors."""

from __future__ import annotations

from typing import Any

import pytest

from officegym.gym.distributed import RayRollout
from officegym.gym.worker import EpisodeSpec, RolloutSettings, plan_episodes, run_local

pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.usefixtures("local_ray")]
TEMPLATES = ["slack.pin-message", "crm.pipeline-amount", "slack.set-status"]


def _key(record: dict[str, Any]) -> tuple:
    """What must match between runs: the episode, its task, every action, reward, grade."""
    actions = [step["action"] for step in record["steps"]]
    task = (record["task"]["id"], record["task"]["seed"])
    return (record["index"], record["env_id"], task, actions, record["reward"], record["grade"])


@pytest.fixture(scope="module")
def random_plan() -> list[EpisodeSpec]:
    return plan_episodes(16, templates=TEMPLATES, seed=40, split="train")


@pytest.fixture(scope="module")
def local_records(random_plan: list[EpisodeSpec]) -> list[tuple]:
    settings = RolloutSettings("random", max_steps=6)
    return [_key(r) for r in run_local(random_plan, settings)]


def test_a_distributed_run_equals_a_local_one(
    random_plan: list[EpisodeSpec], local_records: list[tuple]
) -> None:
    runner = RayRollout(RolloutSettings("random", max_steps=6), workers=2, envs_per_worker=2)
    records = list(runner.run(random_plan))
    runner.close()
    assert sorted(map(_key, records)) == sorted(local_records)
    assert len({r["index"] for r in records}) == len(random_plan) == len(records)


def test_a_killed_actor_is_replaced_and_nothing_is_lost_or_doubled(
    random_plan: list[EpisodeSpec], local_records: list[tuple]
) -> None:
    import ray

    runner = RayRollout(RolloutSettings("random", max_steps=6), workers=2, envs_per_worker=2)
    seen: list[int] = []

    def kill_once(record: dict[str, Any]) -> None:
        seen.append(record["index"])
        if len(seen) == 2:
            ray.kill(runner.actors[0], no_restart=True)

    records = list(runner.run(random_plan, on_result=kill_once))
    runner.close()
    assert [r["failure"] for r in records if r["task"] is None] == []
    assert runner.replaced >= 1 and runner.retried >= 1
    assert sorted(seen) == list(range(len(random_plan)))
    assert sorted(map(_key, records)) == sorted(local_records)


def test_an_episode_that_raises_is_a_failed_record() -> None:
    plan = [EpisodeSpec(0, "officegym/slack-v0", 1), EpisodeSpec(1, "officegym/nope-v0", 2)]
    runner = RayRollout(RolloutSettings("oracle"), workers=1)
    records = sorted(runner.run(plan), key=lambda r: r["index"])
    runner.close()
    assert records[0]["passed"] and records[0]["reward"] == 1.0
    assert records[1]["reward"] == 0.0 and not records[1]["passed"]
    assert "no environment 'officegym/nope-v0'" in records[1]["failure"]
    assert records[1]["ended"] == "env_fault" and records[1]["cause"] == records[1]["failure"]
    assert runner.replaced == 0


def test_browser_mode_in_an_actor_plays_the_reference() -> None:
    plan = plan_episodes(2, templates=["slack.set-status"], seed=3)
    runner = RayRollout(RolloutSettings("browser-oracle", mode="browser"), workers=1)
    records = list(runner.run(plan))
    runner.close()
    assert [r["reward"] for r in records] == [1.0, 1.0]
    assert all(r["mode"] == "browser" and "axtree" in r["observation"] for r in records)


def test_more_workers_than_cpus_run_what_fits_with_a_warning() -> None:
    plan = plan_episodes(3, templates=["slack.pin-message"], seed=5)
    with pytest.warns(RuntimeWarning, match="running 2 worker"):
        runner = RayRollout(RolloutSettings("oracle"), workers=5)  # the session's Ray: 2 CPUs
    assert len(runner.slots) == 2
    records = list(runner.run(plan))
    runner.close()
    assert len(records) == 3
    assert all(r["passed"] for r in records)


_SHADOWED = """
import os, sys
import ray
from officegym.gym.distributed import RayRollout, WorkersFailed, init_ray
from officegym.gym.worker import RolloutSettings, plan_episodes

plan = plan_episodes(2, templates=["slack.pin-message"], seed=1)
os.chdir(sys.argv[1])  # a checkout-like folder whose officegym/ shadows the package
init_ray(num_cpus=1)
runner = RayRollout(RolloutSettings("oracle"), workers=1)
print("through init_ray:", sorted(r["reward"] for r in runner.run(plan)))
runner.close()
ray.shutdown()
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)  # Ray started by hand
try:
    list(RayRollout(RolloutSettings("oracle"), workers=1, retries=5).run(plan))
except WorkersFailed as exc:
    print("by hand: WorkersFailed", "No module named" in str(exc))
ray.shutdown()
"""


def test_workers_import_the_installed_package_or_stop_the_run_at_once(tmp_path) -> None:
    import subprocess
    import sys

    shadow = tmp_path / "checkout"
    (shadow / "officegym").mkdir(parents=True)
    # a non-editable install meets a checkout's officegym/ as this: a package without
    # officegym.gym (an editable install's finder would still find the submodules)
    (shadow / "officegym" / "__init__.py").write_text(
        "raise ImportError(\"No module named 'officegym.gym'\")"
    )
    script = tmp_path / "run.py"
    script.write_text(_SHADOWED)
    done = subprocess.run(
        [sys.executable, str(script), str(shadow)], capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "through init_ray: [1.0, 1.0]" in done.stdout
    assert "by hand: WorkersFailed True" in done.stdout  # one try, not retries x actors
