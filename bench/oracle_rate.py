"""Oracle episodes per second of several apps in one run, on one core.

For each app, every template's first seeds are generated once (cached, as an env reuses
them), then the env plays them in rounds (reset + the reference solution + submit +
grading, cycling over the tasks); each round gives one rate. Apps alternate round by
round, so a load spike on a shared machine hits all of them alike. Prints, per app, the
median and the best round, and the slowest templates of the first app (mean ms per
episode), which is where the time goes.

Times are CPU time of this (pinned, single-threaded) process by default, which is what
the work costs on an idle core even when the machine is shared; ``--clock wall`` for
wall-clock time.

    python bench/oracle_rate.py [--apps sheets slack crm] [--rounds 7] [--episodes 400]
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from timing import CLOCKS, pin_to_one_core

from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.tasks import Task, load_templates, make_task

TASK_SEEDS = range(5)


def tasks_of(app: str) -> list[Task]:
    ids = sorted(t for t, tpl in load_templates().items() if tpl.app == app)
    return [make_task(tid, seed, "default", 0) for tid in ids for seed in TASK_SEEDS]


class AppRun:
    """One app's env and tasks, played round after round."""

    def __init__(self, app: str, clock: Callable[[], float]) -> None:
        self.app, self.clock = app, clock
        self.tasks = tasks_of(app)
        self.env = OfficeEnv(app=app, max_steps=100)
        self.agent = OracleAgent()
        self.rates: list[float] = []
        self.per_template: dict[str, list[float]] = defaultdict(list)
        self.round(len(self.tasks), keep=False)  # warm: worlds, caches, compiled formulas

    def round(self, episodes: int, *, keep: bool = True) -> None:
        total = 0.0
        for i in range(episodes):
            task = self.tasks[i % len(self.tasks)]
            start = self.clock()
            options = {"task": task.id, "task_seed": task.seed}
            result = run_episode(self.env, self.agent, options=options)
            spent = self.clock() - start
            assert result.passed, (task.id, task.seed, result)
            total += spent
            if keep:
                self.per_template[task.id].append(spent)
        if keep:
            self.rates.append(episodes / total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", nargs="+", default=["sheets", "slack", "crm"])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--episodes", type=int, default=400, help="episodes per round")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    where = pin_to_one_core()
    runs = [AppRun(app, CLOCKS[args.clock]) for app in args.apps]
    for _ in range(args.rounds):
        for run in runs:
            run.round(args.episodes)
    table = Table(title=f"oracle episodes/s ({where}, {args.clock} time, {args.rounds} rounds)")
    for column in ("app", "templates", "median /s", "best /s", "worst /s"):
        table.add_column(column, justify="left" if column == "app" else "right")
    for run in runs:
        table.add_row(
            run.app,
            str(len(run.tasks) // len(TASK_SEEDS)),
            f"{statistics.median(run.rates):,.0f}",
            f"{max(run.rates):,.0f}",
            f"{min(run.rates):,.0f}",
        )
    Console().print(table)
    first = runs[0]
    slow = Table(title=f"{first.app}: mean ms per episode, slowest templates")
    slow.add_column("template")
    slow.add_column("ms", justify="right")
    means = {t: statistics.fmean(v) * 1e3 for t, v in first.per_template.items()}
    for tid, ms in sorted(means.items(), key=lambda kv: -kv[1])[:8]:
        slow.add_row(tid, f"{ms:.2f}")
    Console().print(slow)


if __name__ == "__main__":
    main()
