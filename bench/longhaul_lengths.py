"""Reference length, distinct instances and build time of the long-horizon templates.

    python bench/longhaul_lengths.py [--seeds 20] [--validate 0]

Prints, per template, the number of tool calls of the reference solution (min, median,
max over the seeds), the distinct instances (persona and goal) among them, the checks
(sub-goals) per instance and the time to build an instance. With ``--validate N`` it
also times ``officegym validate`` over N seeds (reference, no-op, drops and mutants).
"""

from __future__ import annotations

import argparse
import statistics
import time

from officegym.tasks.base import load_templates, make_task
from officegym.tasks.cross.longhaul import LONG_HORIZON as LONG
from officegym.tasks.validate import check_template


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--validate", type=int, default=0, help="seeds to validate (0: none)")
    args = parser.parse_args()
    load_templates()
    make_task(LONG[0], 10_000)  # warm the world and its indexes
    print(
        f"{'template':30} {'calls min/med/max':>18} {'distinct':>9} {'checks med':>10} "
        f"{'build ms':>9}" + ("  validate s" if args.validate else "")
    )
    for tid in LONG:
        start = time.perf_counter()
        tasks = [make_task(tid, seed) for seed in range(args.seeds)]
        build = (time.perf_counter() - start) / args.seeds * 1000
        calls = [len(t.solution) for t in tasks]
        distinct = len({(t.persona, t.goal) for t in tasks})
        checks = statistics.median(len(t.checks) for t in tasks)
        line = (
            f"{tid:30} {min(calls):>6}/{statistics.median(calls):>4g}/{max(calls):<6} "
            f"{distinct:>9} {checks:>10g} {build:>9.1f}"
        )
        if args.validate:
            start = time.perf_counter()
            report = check_template(tid, range(args.validate))
            line += f"  {time.perf_counter() - start:10.1f} {'ok' if report.ok else 'FAIL'}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
