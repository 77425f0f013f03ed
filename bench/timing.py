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
