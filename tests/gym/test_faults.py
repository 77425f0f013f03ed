"""Injected faults: seeded, recorded in info, never change the world, and an agent that
retries gets the grade it would have had without them."""

from __future__ import annotations

import pytest

from officegym.db import serialize
from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.gym.faults import FAULT_KINDS, FaultInjector
from tests.gym.conftest import template_ids

POST = "slack.post-channel"


@pytest.fixture(scope="module")
def faulty_env() -> OfficeEnv:
    env = OfficeEnv(app="slack", faults=0.5, fault_seed=3, max_steps=60)
    yield env
    env.close()


def _faults_of(env: OfficeEnv, seed: int) -> list[str]:
    """The fault kinds an oracle episode met, in order."""
    obs, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    kinds, done = [], False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        kinds.append(info.get("fault", ""))
        done = term or trunc
    return kinds


def test_the_same_task_meets_the_same_faults(faulty_env: OfficeEnv) -> None:
    runs = {seed: _faults_of(faulty_env, seed) for seed in range(11, 19)}
    assert all(_faults_of(faulty_env, seed) == kinds for seed, kinds in runs.items())
    steps = [kind for kinds in runs.values() for kind in kinds]
    share = sum(map(bool, steps)) / len(steps)  # submit steps never fail, so below one half
    assert 0.1 < share < 0.7, f"at a rate of one half, {share:.0%} of the steps met faults"


def test_faults_draw_no_numbers_from_the_env_stream() -> None:
    plain, faulty = OfficeEnv(app="slack"), OfficeEnv(app="slack", faults=0.5)
    picks = []
    for env in (plain, faulty):
        env.reset(seed=4)
        for _ in range(3):
            env.step({"tool": "slack_list_channels", "arguments": {}})
        _, info = env.reset()
        picks.append((info["task"]["id"], info["task"]["seed"]))
        env.close()
    assert picks[0] == picks[1]


def test_a_failed_write_changes_nothing_and_says_why() -> None:
    env = OfficeEnv(task=POST, faults=0.99, fault_seed=0)
    env.reset(seed=0)
    task = env.task
    before = serialize(env.world.engine)
    call = task.solution[-1]
    obs, reward, *_, info = env.step({"tool": call.name, "arguments": dict(call.arguments)})
    assert info["fault"] in {"rate_limited", "timeout", "server_error"}
    assert info["error_code"] == info["fault"] and not info["ok"]
    assert obs["error"] and obs["result"] == "" and reward == 0.0
    assert serialize(env.world.engine) == before
    env.close()


def test_a_stale_read_repeats_an_earlier_answer_without_an_error() -> None:
    injector = FaultInjector(0.99, seed=1)
    injector.start(POST, 0)
    kinds = {f.kind for f in (injector.draw(stale_possible=True) for _ in range(200)) if f}
    assert kinds == set(FAULT_KINDS)
    injector.start(POST, 0)
    assert all(
        f is None or f.kind != "stale_read"
        for f in (injector.draw(stale_possible=False) for _ in range(200))
    )


@pytest.mark.parametrize("tid", template_ids()[:6])
def test_an_oracle_that_retries_gets_the_same_grade(faulty_env: OfficeEnv, tid: str) -> None:
    clean = OfficeEnv(task=tid)
    base = run_episode(clean, OracleAgent(), seed=2, options={"task_seed": 5})
    clean.close()
    options = {"task": tid, "task_seed": 5}
    got = run_episode(faulty_env, OracleAgent(), seed=2, options=options)
    assert (got.reward, got.passed) == (base.reward, base.passed) == (1.0, True)


@pytest.mark.parametrize("rate", [-0.1, 1.0, "0.1", True])
def test_a_bad_fault_rate_is_refused(rate: object) -> None:
    with pytest.raises(ValueError, match="faults must be a fraction"):
        OfficeEnv(app="slack", faults=rate)  # type: ignore[arg-type]
