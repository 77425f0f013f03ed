"""The reference agents: the oracle replays the solution, the random agent is seeded."""

from __future__ import annotations

from officegym.gym import OfficeEnv, OracleAgent, RandomAgent, run_episode, summarize
from officegym.gym.spaces import SUBMIT


def test_oracle_plays_the_solution_then_submits_the_answer(slack_env: OfficeEnv) -> None:
    obs, info = slack_env.reset(seed=4)
    task = slack_env.task
    assert task is not None
    agent = OracleAgent()
    agent.reset(slack_env, obs, info)
    actions = [agent.act(obs, info) for _ in range(len(task.solution) + 1)]
    assert [a["tool"] for a in actions[:-1]] == [c.name for c in task.solution]
    assert actions[-1]["tool"] == SUBMIT
    assert actions[-1]["arguments"].get("answer") == task.answer


def test_random_agents_with_one_seed_act_alike() -> None:
    runs = []
    for _ in range(2):
        env = OfficeEnv(app="slack", max_steps=5)
        agent = RandomAgent(seed=9)
        obs, info = env.reset(seed=0)
        agent.reset(env, obs, info)
        runs.append([agent.act(obs, info) for _ in range(10)])
        env.close()
    assert runs[0] == runs[1] and len(set(runs[0])) > 1


def test_random_agent_episodes_end_and_score_low(slack_env: OfficeEnv) -> None:
    results = [run_episode(slack_env, RandomAgent(seed=1), seed=s) for s in range(5)]
    rows, total = summarize(results)
    assert total.episodes == 5 and sum(r.episodes for r in rows) == 5
    assert all(1 <= r.steps <= slack_env.max_steps for r in results)
    assert total.mean_reward < 1.0
