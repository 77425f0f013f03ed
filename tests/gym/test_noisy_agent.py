"""The noisy reference solver: a scripted agent of known skill (error rate p per step)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import pytest

import officegym  # noqa: F401  (registers the envs)
from officegym.gym.agents import NoisyOracleAgent, fatal_steps
from officegym.tasks import make_task


@pytest.fixture(scope="module")
def env() -> Iterator[gymnasium.Env]:
    made = gymnasium.make("officegym/crm.close-case-v0", difficulty="hard")
    yield made
    made.close()


def _play(env: gymnasium.Env, agent: NoisyOracleAgent, seed: int) -> tuple[list[Any], bool]:
    obs, info = env.reset(seed=seed)
    agent.reset(env, obs, info)
    actions, done = [], False
    while not done:
        action = agent.act(obs, info)
        actions.append(action)
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return actions, bool(info["grade"]["passed"])


def test_without_errors_it_is_the_oracle(env: gymnasium.Env) -> None:
    for seed in range(3):
        actions, passed = _play(env, NoisyOracleAgent(seed=seed, p=0.0), seed)
        solution = env.unwrapped.task.solution
        assert passed
        assert [(a["tool"], a["arguments"]) for a in actions[:-1]] == [
            (c.name, c.arguments) for c in solution
        ]


def test_erring_at_every_step_changes_or_drops_every_write_and_fails(env: gymnasium.Env) -> None:
    for seed in range(3):
        actions, passed = _play(env, NoisyOracleAgent(seed=seed, p=1.0), seed)
        writes = [c for c in env.unwrapped.task.solution if c.name == "crm_close_case"]
        sent = [a for a in actions if a["tool"] == "crm_close_case"]
        assert not passed
        assert not any(
            (a["tool"], a["arguments"]) == (c.name, c.arguments) for a in sent for c in writes
        )
        assert all(a["tool"] != "crm_search_cases" for a in actions)  # reads are skipped


def test_errors_are_seeded_per_episode_and_instance(env: gymnasium.Env) -> None:
    runs = [_play(env, NoisyOracleAgent(seed=5, p=0.5), 11)[0] for _ in range(2)]
    assert runs[0] == runs[1]
    patterns = {str(_play(env, NoisyOracleAgent(seed=s, p=0.5), 11)[0]) for s in range(6)}
    assert len(patterns) > 1


def test_the_steps_that_matter_are_the_writes_and_the_answer() -> None:
    assert fatal_steps(make_task("crm.close-case", 0, difficulty="hard")) == 3
    assert fatal_steps(make_task("slack.lookup-manager", 0, difficulty="hard")) == 1
    assert fatal_steps(make_task("slack.post-channel", 0, difficulty="medium")) == 2


def test_a_bad_error_rate_is_refused() -> None:
    with pytest.raises(ValueError, match=r"lie in \[0, 1\]"):
        NoisyOracleAgent(p=1.5)
