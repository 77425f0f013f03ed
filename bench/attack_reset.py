"""What an attack costs per episode in tools mode: reset, and the grade at the end, for the
benign env and the same episodes with ``attack="mixed"`` (planting through the apps, the
baseline snapshot, the attack grader), and how many episodes got an attack.

    .venv/bin/python bench/attack_reset.py [--episodes 40] [--env officegym/crm-v0]

The first pass warms the caches (task builds, the reference replays `expected` keeps), so
the figures are per episode once an instance has been seen.
"""

from __future__ import annotations

import statistics
import sys
import time

import gymnasium

import officegym  # noqa: F401  (registers the environments)


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def measure(env_id: str, episodes: int, **kwargs: object) -> tuple[list[float], list[float], int]:
    """Per-episode reset and grade times (ms) of the reference play, and episodes attacked."""
    env = gymnasium.make(env_id, **kwargs)
    resets, grades, attacked = [], [], 0
    for warm in (True, False):
        for seed in range(episodes):
            t = time.perf_counter()
            _, info = env.reset(seed=seed)
            took = (time.perf_counter() - t) * 1000
            task = env.unwrapped.task
            for c in task.solution:
                env.step({"tool": c.name, "arguments": c.arguments})
            t = time.perf_counter()
            env.step({"tool": "submit", "arguments": {"answer": task.answer or ""}})
            graded = (time.perf_counter() - t) * 1000
            if not warm:
                resets.append(took)
                grades.append(graded)
                attacked += info.get("attack") is not None
    env.close()
    return resets, grades, attacked


def main() -> None:
    episodes = int(_arg("--episodes", "40"))
    env_id = _arg("--env", "officegym/crm-v0")
    print(f"{env_id}, {episodes} episodes (seeds 0..{episodes - 1}), after a warm-up pass")
    print(f"{'attack':8} {'reset ms (median/p90)':>24} {'grade ms (median/p90)':>24} attacked")
    for attack in ("none", "mixed"):
        resets, grades, attacked = measure(env_id, episodes, attack=attack)
        r = f"{statistics.median(resets):.1f} / {statistics.quantiles(resets, n=10)[-1]:.1f}"
        g = f"{statistics.median(grades):.1f} / {statistics.quantiles(grades, n=10)[-1]:.1f}"
        print(f"{attack:8} {r:>24} {g:>24} {attacked}/{episodes}")


if __name__ == "__main__":
    main()
