"""What the bench scripts share for measuring: one pinned core, a clock chosen on the
command line (CPU time of this thread, or wall time) and the median of repeated calls.
Scripts run as ``python bench/<name>.py``, so this module imports as ``timing``."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
_chosen: list[Callable[[], float]] = [time.thread_time]


def use_clock(name: str) -> None:
    """Measure with the clock named `name` ("cpu" or "wall") from now on."""
    _chosen[0] = CLOCKS[name]


def now() -> float:
    """The chosen clock's reading, in seconds."""
    return _chosen[0]()


def pin_to_one_core() -> str:
    """Run on a single CPU so the figures are per core."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"cpu {cpu}"
    return "unpinned"


def median_ms(fn: Callable[[], object], n: int) -> float:
    """Median time of `n` calls of `fn` on the chosen clock, in milliseconds."""
    samples = []
    for _ in range(n):
        t = now()
        fn()
        samples.append(now() - t)
    return statistics.median(samples) * 1e3


def env_step_ms(env_id: str, action: dict, steps: int) -> float:
    """Median wall time of `env.step(action)` on a fresh `env_id` (after one warm-up step), ms."""
    import gymnasium

    use_clock("wall")
    env = gymnasium.make(env_id, max_steps=10**6)
    env.reset(seed=0)
    env.step(action)
    try:
        return median_ms(lambda: env.step(action), steps)
    finally:
        env.close()


def chat_ms(base_url: str, model: str, goal: str, calls: int = 50) -> float:
    """Mean wall time of one chat completion (`goal` as the user's message) from an
    OpenAI-compatible server, through the openai client, in ms."""
    import openai

    client = openai.OpenAI(base_url=base_url, api_key="x")
    messages = [{"role": "user", "content": goal}]
    start = time.perf_counter()
    for _ in range(calls):
        client.chat.completions.create(model=model, messages=messages)
    return 1000 * (time.perf_counter() - start) / calls
