"""Benchmark of the rollout hot path, on one core.

Prints the world's size, then medians of: world reset, env reset (task cached),
one tool call (over the calls of the oracle solutions), grading, task
generation (a seed not seen before), and whole oracle episodes per second
through the env (reset + oracle steps + submit + grading), on cached tasks and
on new instances of each split (as RL rollouts draw them).

Times are CPU time of this (pinned, single-threaded) process by default, which
is what the work costs on an idle core even when the machine is shared; pass
``--clock wall`` for wall-clock time.

    python bench/reset_step.py [--episodes 2000] [--app slack] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from timing import CLOCKS, median_ms, now, pin_to_one_core, use_clock

from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.gym.colleagues import make_responder
from officegym.runner import ToolRunner
from officegym.tasks import Task, grade, load_templates, make_task
from officegym.tasks.responders import colleague_for
from officegym.tools import REGISTRY
from officegym.world import World, world_image

TASK_SEEDS = range(5)
RESPONDER = make_responder(None)  # the simulated colleague the env uses by default


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: str = ""


def table_rows(world: World) -> dict[str, int]:
    """Rows per table of the seeded world (every table in the database file)."""
    with world.engine.connect() as conn:
        names = conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ).scalars()
        return {n: conn.exec_driver_sql(f'SELECT count(*) FROM "{n}"').scalar_one() for n in names}


def tasks_of(app: str) -> list[Task]:
    """The app's tasks for the first few seeds (generated here, so cached for the env)."""
    ids = sorted(t for t, tpl in load_templates().items() if tpl.app == app)
    return [make_task(tid, seed, "default", 0) for tid in ids for seed in TASK_SEEDS]


def call_and_grade_times(world: World, tasks: list[Task]) -> tuple[list[float], list[float]]:
    """Per-call times of every oracle solution, and the grading time of each task (ms)."""
    calls, grades = [], []
    for task in tasks:
        world.reset()
        runner = ToolRunner(world, task.persona)
        colleague = colleague_for(task, runner.session, RESPONDER)  # ask tasks' requester
        for c in task.solution:
            t = now()
            outcome = runner.call(c.name, c.arguments)
            calls.append((now() - t) * 1e3)
            assert outcome.ok, (task.id, c, outcome.error)
            answers = colleague is not None and REGISTRY[c.name].kind == "write"
            if answers and colleague.answer(runner.session):  # type: ignore[union-attr]
                runner.session.commit()
        runner.close()
        t = now()
        with world.initial_connection() as before, world.engine.connect() as after:
            g = grade(task, before, after, task.answer)
        grades.append((now() - t) * 1e3)
        assert g.passed, (task.id, task.seed, g)
    return calls, grades


def task_generation_ms(app: str, n: int = 20) -> float:
    """Median cost of `make_task` for seeds never generated before (not cached)."""
    ids = sorted(t for t, tpl in load_templates().items() if tpl.app == app)
    samples = []
    for i in range(n):
        t = now()
        make_task(ids[i % len(ids)], 900_000 + i)
        samples.append(now() - t)
    return statistics.median(samples) * 1e3


def oracle_throughput(env: OfficeEnv, tasks: list[Task], episodes: int) -> float:
    """Oracle episodes per second through the env, cycling over cached tasks."""
    agent = OracleAgent()
    options = [{"task": t.id, "task_seed": t.seed} for t in tasks]
    start = now()
    for i in range(episodes):
        result = run_episode(env, agent, options=options[i % len(options)])
        assert result.passed, result
    return episodes / (now() - start)


def fresh_throughput(env: OfficeEnv, episodes: int, split: str) -> float:
    """Oracle episodes per second when every reset draws a new instance of `split` (as
    RL rollouts do): task generation and the split's seed search included."""
    agent = OracleAgent()
    env.reset(seed=12_345, options={"split": split})
    start = now()
    for _ in range(episodes):
        result = run_episode(env, agent, options={"split": split})
        assert result.passed, result
    return episodes / (now() - start)


def measure(app: str, episodes: int) -> list[Figure]:
    """Every figure, in the order printed."""
    world = World(world_image("default", 0))
    rows = table_rows(world)
    tasks = tasks_of(app)
    env = OfficeEnv(app=app, max_steps=100)
    first = {"task": tasks[0].id, "task_seed": tasks[0].seed}
    calls, grades = call_and_grade_times(world, tasks)
    env_reset = median_ms(lambda: env.reset(options=first), 500)
    throughput = oracle_throughput(env, tasks, episodes)

    def fresh(env: OfficeEnv, split: str) -> float:
        return fresh_throughput(env, max(episodes // 4, 50), split)

    figures = [
        Figure("world tables", len(rows), ""),
        Figure("world rows (all tables)", sum(rows.values()), ""),
        Figure("world bytes", len(world.image.data) / 1e6, "MB"),
        Figure("world.reset() median", median_ms(world.reset, 2000), "ms", "<= 1 ms"),
        Figure("env.reset() median (task cached)", env_reset, "ms"),
        Figure(f"tool call median ({len(calls)} calls)", statistics.median(calls), "ms", "<= 0.5"),
        Figure("tool call p90", statistics.quantiles(calls, n=10)[-1], "ms"),
        Figure(f"grading median ({len(grades)} tasks)", statistics.median(grades), "ms"),
        Figure("task generation median (new seed)", task_generation_ms(app), "ms"),
        Figure("oracle episodes/s (tasks cached)", throughput, "/s", ">= 300"),
        Figure("oracle episodes/s (new train instances)", fresh(env, "train"), "/s"),
        Figure("oracle episodes/s (new test instances)", fresh(env, "test"), "/s"),
    ]
    env.close()
    world.close()
    return figures


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--app", default="slack")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    use_clock(args.clock)
    where = pin_to_one_core()
    world = World(world_image("default", 0))  # build or load the image outside the timings
    sizes = Table(title="rows per table")
    sizes.add_column("table")
    sizes.add_column("rows", justify="right")
    for name, n in table_rows(world).items():
        sizes.add_row(name, f"{n:,}")
    Console().print(sizes)
    figures = measure(args.app, args.episodes)
    title = f"officegym reset/step benchmark ({args.app}, {where}, {args.clock} time)"
    table = Table(title=title)
    for column in ("measure", "value", "unit", "target"):
        table.add_column(column, justify="right" if column == "value" else "left")
    for f in figures:
        value = f"{f.value:,.0f}" if f.unit in ("", "/s") else f"{f.value:.3f}"
        table.add_row(f.name, value, f.unit, f.target)
    Console().print(table)


if __name__ == "__main__":
    main()
