"""Benchmark of the simulated requester: what it adds to a tools-mode step.

Plays the oracle on every ask-the-requester template (tasks/ask/) over a few seeds and
prints the median CPU time of one env step, of the colleague's look-up after a step
(`Colleague.answer`, which runs after every successful tool call of such a task), and
oracle episodes per second.

    python bench/ask_requester.py [--seeds 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.tasks import load_templates
from officegym.tasks.responders import Colleague

clock = time.thread_time
ASK = "officegym.tasks.ask."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    seeds = parser.parse_args().seeds
    ids = sorted(t for t, tpl in load_templates().items() if tpl.build.__module__.startswith(ASK))
    hooks: list[float] = []
    original = Colleague.answer

    def timed(self: Colleague, s):  # type: ignore[no-untyped-def]
        t0 = clock()
        out = original(self, s)
        hooks.append(clock() - t0)
        return out

    Colleague.answer = timed  # type: ignore[method-assign]
    episodes, steps, passed = [], 0, 0
    for tid in ids:
        env = OfficeEnv(task=tid, max_steps=50)
        run_episode(env, OracleAgent(), options={"task_seed": 0})  # warm the task caches
        for seed in range(seeds):
            t0 = clock()
            result = run_episode(env, OracleAgent(), options={"task_seed": seed})
            episodes.append(clock() - t0)
            steps += result.steps
            passed += result.passed
        env.close()
    print(f"templates: {len(ids)}, episodes: {len(episodes)}, passed: {passed}")
    median = statistics.median(episodes) * 1e3
    print(f"oracle episode (reset + steps + grading): median {median:.2f} ms")
    print(f"episodes per second: {len(episodes) / sum(episodes):.1f}")
    print(f"colleague look-up after a step: median {statistics.median(hooks) * 1e3:.3f} ms "
          f"over {len(hooks)} steps")  # fmt: skip


if __name__ == "__main__":
    main()
