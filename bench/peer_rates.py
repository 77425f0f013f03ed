"""Oracle episodes per CPU second, officegym beside AgentDojo, per domain, in one run.

An episode is a fresh task instance, its reference solution played, and the final state
graded. officegym, three ways per app:

- ``fresh``: an instance never played in this process at every reset, read from the
  world's instance store (``instance_pool=True``; the store is built before timing, as
  ``officegym instances build`` does once per code version);
- ``cached``: a few instances played again (built once, kept in the process);
- ``built``: an instance never built before (a new seed), built at reset and its expected
  end state replayed at grading: what a fresh instance costs without a store.

AgentDojo 0.1.35 (the bench extra), for the suite of the same kind: its ground-truth
pipeline on a deep copy of the suite's loaded environment per episode (its tasks are fixed,
so a fresh instance is a fresh copy), then its utility check, as ``TaskSuite.check`` runs
it. Domains and suites: slack/slack, booking/travel, sheets/workspace, crm/banking,
cross/workspace.

Rounds alternate between all of them (each round runs episodes until ``--round`` CPU
seconds), so load on a shared machine hits all alike; figures are the median round, in CPU
time of this process pinned to one core. Prints one table of rates and ratios.

    python bench/peer_rates.py [--domains slack booking] [--rounds 5] [--round 0.5]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from timing import pin_to_one_core

PEERS = {
    "slack": "slack",
    "booking": "travel",
    "sheets": "workspace",
    "crm": "banking",
    "cross": "workspace",
}
AGENTDOJO_VERSION = "v1.2"
HEADER = ("domain", "fresh /s", "cached /s", "built /s", "AgentDojo /s", "suite")
RATIOS = ("fresh/AgentDojo", "fresh/cached", "fresh/built")


@dataclass
class Runner:
    """One way of playing episodes: `play()` runs one; rounds keep its rates."""

    play: Callable[[], None]
    rates: list[float] = field(default_factory=list)

    def round(self, seconds: float) -> None:
        n, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds or n == 0:
            self.play()
            n += 1
        self.rates.append(n / spent)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)


def officegym_runners(app: str, seeds: int) -> dict[str, Runner]:
    """The fresh, cached and built ways of playing `app`'s templates."""
    from officegym.gym import OfficeEnv, OracleAgent, run_episode
    from officegym.tasks import load_templates
    from officegym.tasks.instances import build_store, open_store

    ids = sorted(t for t, tpl in load_templates().items() if tpl.app == app)
    build_store(ids, seeds)
    store = open_store("default", 0)
    assert store is not None
    by_template = [store.seeds(t, load_templates()[t].difficulty, "train") for t in ids]
    stored = _round_robin(ids, by_template)  # templates in turn, so every round mixes them
    agent = OracleAgent()

    def player(env: OfficeEnv, tasks: Iterator[tuple[str, int]] | None) -> Callable[[], None]:
        def play() -> None:
            options = {}
            if tasks is not None:
                options["task"], options["task_seed"] = next(tasks)
            result = run_episode(env, agent, options=options)
            assert result.passed, (options, result)

        return play

    env = OfficeEnv(app=app, max_steps=200)
    cached = _round_robin(ids, [s[:2] for s in by_template])
    for tid, seed in cached:  # built and graded once: the cache holds them from now on
        run_episode(env, agent, options={"task": tid, "task_seed": seed})
    pool_env = OfficeEnv(app=app, instance_pool=True, max_steps=200)
    return {
        "fresh": Runner(player(pool_env, itertools.cycle(stored))),
        "cached": Runner(player(env, itertools.cycle(cached))),
        # a default env: each reset draws a seed of 2**31, so builds a new instance
        "built": Runner(player(OfficeEnv(app=app, max_steps=200), None)),
    }


def _round_robin(ids: list[str], seeds: list[tuple[int, ...]]) -> list[tuple[str, int]]:
    """(template, seed) pairs, one seed of each template in turn."""
    out = []
    for column in itertools.zip_longest(*seeds):
        out += [(t, s) for t, s in zip(ids, column, strict=True) if s is not None]
    return out


def agentdojo_runner(suite_name: str) -> Runner:
    """AgentDojo's ground truth on a deep copy of the suite's environment per episode."""
    from agentdojo.agent_pipeline.ground_truth_pipeline import GroundTruthPipeline
    from agentdojo.task_suite.load_suites import get_suite

    suite = get_suite(AGENTDOJO_VERSION, suite_name)
    environment = suite.load_and_inject_default_environment({})
    tasks = []
    for task in suite.user_tasks.values():
        try:
            ok, _ = suite.run_task_with_pipeline(
                GroundTruthPipeline(task),
                task,
                None,
                {},
                environment=environment.model_copy(deep=True),
            )
        except Exception:
            ok = False
        if ok:
            tasks.append(task)
    cycle = itertools.cycle(tasks)

    def play() -> None:
        task = next(cycle)
        fresh = environment.model_copy(deep=True)
        ok, _ = suite.run_task_with_pipeline(
            GroundTruthPipeline(task), task, None, {}, environment=fresh
        )
        assert ok, task.ID

    return Runner(play)


def rows(domains: list[str], runs: dict[str, dict[str, Runner]]) -> list[tuple[str, ...]]:
    """The table's rows: rates, then the ratios."""
    out = []
    for d in domains:
        r = {k: v.rate for k, v in runs[d].items()}
        out.append((
            d,
            f"{r['fresh']:,.0f}",
            f"{r['cached']:,.0f}",
            f"{r['built']:,.0f}",
            f"{r['agentdojo']:,.0f}",
            PEERS[d],
            f"{r['fresh'] / r['agentdojo']:.2f}",
            f"{r['fresh'] / r['cached']:.2f}",
            f"{r['fresh'] / r['built']:.2f}",
        ))  # fmt: skip
    return out


def table(lines: list[tuple[str, ...]]) -> str:
    """A Markdown table of `lines` under `HEADER` + `RATIOS`."""
    head = HEADER + RATIOS
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", nargs="+", default=list(PEERS), choices=list(PEERS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--round", type=float, default=0.5, help="CPU seconds per round")
    parser.add_argument("--seeds", type=int, default=24, help="stored seeds per template")
    args = parser.parse_args()
    where = pin_to_one_core()
    runs: dict[str, dict[str, Runner]] = {}
    for d in args.domains:
        runs[d] = {**officegym_runners(d, args.seeds), "agentdojo": agentdojo_runner(PEERS[d])}
        for runner in runs[d].values():
            runner.round(args.round / 5)  # warm
            runner.rates.clear()
    for _ in range(args.rounds):
        for d in args.domains:
            for runner in runs[d].values():
                runner.round(args.round)
    print(f"oracle episodes per CPU second ({where}, median of {args.rounds} rounds)")
    print(table(rows(args.domains, runs)))


if __name__ == "__main__":
    main()
