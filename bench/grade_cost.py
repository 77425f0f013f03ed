"""What final-state grading costs per episode: `grade()` on a reference's end state, split
into the part grading always did (diff + the template's checks) and the part final-state
grading adds (matching the reference's end state), plus the one-time replay of the
reference per task instance (`expected`, cached afterwards).

    .venv/bin/python bench/grade_cost.py [--repeat 30]

"checks" is diff + the template's checks (what grading did before, less its allowance
pass); "match" what final-state grading adds per episode; "grade" the whole `grade()`
(diff, checks, matching, state items, allowances); "replay once" the first `expected`
of an instance.
"""

from __future__ import annotations

import statistics
import sys
import time

from officegym.changes import diff
from officegym.tasks import make_task
from officegym.tasks.checks import GradeContext
from officegym.tasks.expected import _CACHE, expected, run_calls
from officegym.tasks.grading import grade
from officegym.tasks.matching import match
from officegym.world import World, world_image

TEMPLATES = (
    "slack.post-channel",
    "crm.update-deal",
    "sheets.append-expense",
    "cross.book-requested-trip",
    "cross.travel-desk",
)


def ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def measure(world: World, tid: str, repeat: int) -> tuple[float, float, float, float]:
    """(checks, match, grade, replay once) in ms for the reference's end state of `tid`."""
    task = make_task(tid, 0)
    _CACHE.clear()
    t = time.perf_counter()
    exp = expected(task)
    once = (time.perf_counter() - t) * 1000
    run_calls(world, task, task.solution)
    with world.initial_connection() as before, world.engine.connect() as after:
        changes = tuple(diff(before, after))

        def checks() -> None:
            g = GradeContext(before, after, tuple(diff(before, after)), task.answer, task.goal)
            for c in task.checks:
                c.evaluate(g)

        m = ms(lambda: match(exp, changes), repeat)
        c = ms(checks, repeat)
        total = ms(lambda: grade(task, before, after, task.answer), repeat)
    return c, m, total, once


def main(repeat: int) -> None:
    world = World(world_image("default", 0))
    expected(make_task(TEMPLATES[0], 1))  # build the replay world outside the figures
    print(f"{'template':28} {'checks':>8} {'match':>8} {'grade':>8} {'replay once':>12}  (ms)")
    for tid in TEMPLATES:
        c, m, total, once = measure(world, tid, repeat)
        print(f"{tid:28} {c:8.2f} {m:8.3f} {total:8.2f} {once:12.1f}")
    world.close()


if __name__ == "__main__":
    main(int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 30)
