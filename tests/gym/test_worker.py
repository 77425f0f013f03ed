"""Rollout plans and the worker that plays them: an episode depends only on its spec."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from officegym.gym.worker import EpisodeWorker, RolloutSettings, plan_episodes, run_local


def test_a_plan_goes_round_its_templates_with_consecutive_seeds() -> None:
    plan = plan_episodes(5, templates=["slack.pin-message", "slack.set-status"], seed=7)
    assert [s.env_id for s in plan[:3]] == [
        "officegym/slack.pin-message-v0",
        "officegym/slack.set-status-v0",
        "officegym/slack.pin-message-v0",
    ]
    assert [s.seed for s in plan] == [7, 8, 9, 10, 11] and [s.index for s in plan] == [
        0,
        1,
        2,
        3,
        4,
    ]
    assert all(s.options == {"split": "train"} for s in plan)


@pytest.mark.parametrize(("episodes", "ids"), [(0, ("officegym/slack-v0",)), (3, ())])
def test_a_plan_needs_episodes_and_envs(episodes: int, ids: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        plan_episodes(episodes, env_ids=ids)


def test_episodes_do_not_depend_on_order_or_threads() -> None:
    plan = plan_episodes(8, env_ids=["officegym/slack-v0"], seed=100)
    settings = RolloutSettings("random", max_steps=5)
    forward = {r["index"]: r for r in run_local(plan, settings)}
    worker = EpisodeWorker(settings)
    with ThreadPoolExecutor(3) as pool:
        threaded = {r["index"]: r for r in pool.map(worker.run, reversed(plan))}
    worker.close()
    assert forward.keys() == threaded.keys()
    for i, record in forward.items():
        other = threaded[i]
        assert record["task"] == other["task"] and record["reward"] == other["reward"]
        assert [s["action"] for s in record["steps"]] == [s["action"] for s in other["steps"]]


def test_a_record_carries_the_episode_and_its_outcome() -> None:
    plan = plan_episodes(1, templates=["slack.pin-message"], seed=2)
    (record,) = run_local(plan, RolloutSettings("oracle", faults=0.0))
    assert record["index"] == 0 and record["seed"] == 2 and record["agent"] == "oracle"
    assert record["passed"] and record["reward"] == 1.0 and record["complete"]
    assert record["n_steps"] == len(record["steps"]) and record["failure"] is None
    assert record["grade"]["passed"] and record["task"]["id"] == "slack.pin-message"
