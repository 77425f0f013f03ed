"""The self-check every template must pass, for authors and for the test suite.

Over many seeds: the reference solution scores 1.0 and passes, doing nothing scores
0, dropping any single state-changing call (or the answer) fails, and every
near-miss mutant of the reference (`officegym.tasks.mutants`) fails — unless it
leaves the database exactly as the reference does (equivalent), or the template
declares it indistinguishable with a reason (declared). Every other surviving
mutant is a problem. `check_template` also counts the mutants, for the report of
`officegym validate`.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, Unpack

from sqlalchemy import DateTime

from officegym.changes import diff
from officegym.db import Base
from officegym.tasks.base import Task, get_template, make_task
from officegym.tasks.expected import run_calls
from officegym.tasks.grading import Grade, grade
from officegym.tasks.mutants import Mutant, mutants
from officegym.tasks.policies import (
    POLICIES,
    PRIOR_LIMIT,
    PRIOR_MIN_SEEDS,
    REPORTED_ONLY,
    Tally,
    claim_first,
    extra_damage,
    messages_only,
    prior_share,
    reference_outcomes,
    typed_in,
    undo_runs,
)
from officegym.tools import ToolCall, load_tools
from officegym.world import Checkpoint, World, world_image

__all__ = [
    "CheckOptions",
    "MutationScore",
    "Problem",
    "TemplateReport",
    "check_template",
    "instance_problem",
    "play",
    "replay",
    "state_of",
    "validate_template",
]


@dataclass(frozen=True)
class Problem:
    """One broken promise of a template instance."""

    template_id: str
    seed: int
    what: str


@dataclass
class MutationScore:
    """How many mutants were built, and how each ended."""

    built: int = 0
    killed: int = 0
    equivalent: int = 0  # left the database as the reference did
    declared: int = 0  # survived, declared indistinguishable by the template
    survived: int = 0

    def add(self, other: MutationScore) -> None:
        for name in ("built", "killed", "equivalent", "declared", "survived"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def score(self) -> float:
        """Killed share of the mutants that had to die (1.0 when none had to)."""
        judged = self.killed + self.survived
        return self.killed / judged if judged else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "built": self.built,
            "killed": self.killed,
            "equivalent": self.equivalent,
            "declared": self.declared,
            "survived": self.survived,
            "score": round(self.score, 4),
        }


@dataclass
class TemplateReport:
    """Everything validate found for one template over its seeds."""

    template_id: str
    problems: list[Problem] = field(default_factory=list)
    mutation: MutationScore = field(default_factory=MutationScore)
    declared: dict[str, str] = field(default_factory=dict)  # "kind tool.arg" -> reason
    policies: dict[str, Tally] = field(default_factory=lambda: {p: Tally() for p in POLICIES})
    unpaired: set[str] = field(default_factory=set)  # write tools with no inverse (undo)
    loose: list[str] = field(default_factory=list)  # passed runs of REPORTED_ONLY policies
    prior: float | None = None  # share of instances expecting the most common answer
    prior_seeds: int = 0
    built: int = 0  # seeds whose instance was built
    skipped: dict[int, str] = field(default_factory=dict)  # seed -> what the world lacks

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def all_skipped(self) -> bool:
        """The world lacks what the template `needs` on every seed: nothing was checked."""
        return bool(self.skipped) and not self.built and self.ok


def play(world: World, task: Task, *, skip: int | None = None) -> tuple[Grade, list[str]]:
    """Replay the reference solution (without call `skip`; index len(solution) drops the
    answer) on a fresh copy of the world; returns the grade and the calls' errors."""
    calls = [c for i, c in enumerate(task.solution) if i != skip]
    answer = task.answer if skip != len(task.solution) else None
    return replay(world, task, calls, answer)


def replay(
    world: World,
    task: Task,
    calls: Iterable[ToolCall],
    answer: str | None,
    *,
    start: tuple[int, Checkpoint] | None = None,
    save: dict[int, Checkpoint | None] | None = None,
) -> tuple[Grade, list[str]]:
    """Run `calls` as the task's persona on a fresh copy of the world, then grade them with
    `answer`; returns the grade and the calls' errors. With `start` (n, checkpoint) the
    world is rewound to the checkpoint taken before call n and the first n calls are not
    run again; `save` receives a checkpoint before each call whose index it holds as a key
    (index len(calls): after the last call)."""
    errors = run_calls(world, task, calls, start=start, save=save)
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, answer), errors


def _kind(registry: dict, name: str) -> str | None:
    return registry[name].kind if name in registry else None


def state_changing_steps(task: Task) -> list[int]:
    """Indexes of the solution's write calls, plus len(solution) if an answer is needed."""
    registry = load_tools()
    steps = [i for i, c in enumerate(task.solution) if _kind(registry, c.name) == "write"]
    return [*steps, len(task.solution)] if task.answer is not None else steps


class CheckOptions(TypedDict, total=False):
    """What `check_template` may be told besides the template and seeds; each left out
    takes its default there."""

    scenario: str  # the seeded world's scenario ("default")
    world_seed: int  # and its seed (0)
    mutate: bool  # also build and replay the near-miss mutants and policies (True)
    difficulty: str | None  # the level to build at (None: the template's own)


def validate_template(
    template_id: str, seeds: Iterable[int], **options: Unpack[CheckOptions]
) -> list[Problem]:
    """Every problem found over `seeds` (an empty list means the template is sound)."""
    return check_template(template_id, seeds, **options).problems


def check_template(
    template_id: str,
    seeds: Iterable[int],
    *,
    scenario: str = "default",
    world_seed: int = 0,
    mutate: bool = True,
    difficulty: str | None = None,
) -> TemplateReport:
    """The contract and the mutants of one template over `seeds`, at one level (None: the
    template's own)."""
    world = World(world_image(scenario, world_seed))
    report = TemplateReport(template_id)
    needs = get_template(template_id).needs
    built: list[Task] = []
    for seed in seeds:
        try:
            task = make_task(template_id, seed, scenario, world_seed, difficulty)  # type: ignore[arg-type]
        except LookupError as exc:
            if not needs:  # a template that declares no need must build on every world
                report.problems.append(Problem(template_id, seed, f"build failed: {_where(exc)}"))
            else:
                report.skipped[seed] = f"{needs} ({exc})"
            continue
        except Exception as exc:  # report, don't stop: authors want every failure at once
            report.problems.append(Problem(template_id, seed, f"build failed: {_where(exc)}"))
            continue
        built.append(task)
        found = _instance_problems(world, task)
        if mutate and not found:
            found = _mutation(world, task, report) + _policies(world, task, report)
        report.problems += [Problem(template_id, seed, w) for w in found]
    world.close()
    report.built = len(built)
    report.problems += _priors(template_id, [t.answer for t in built], report)
    if (few := instance_problem(template_id, built, difficulty)) is not None:
        report.problems.append(Problem(template_id, -1, few))
    return report


DISTINCT_MIN_SEEDS = 20  # judged over this many built instances or more
DISTINCT_SHARE = 0.75  # 15 of 20 (persona, goal) pairs distinct at the template's own level
DISTINCT_SHARE_OTHER = 0.6  # 12 of 20 at another level, which narrows what it can pick


def instance_problem(template_id: str, tasks: Sequence[Task], level: str | None) -> str | None:
    """Too few distinct instances (persona and goal) among `tasks`, built at `level` (None:
    the template's own), or None. Splits are by instance, so a template needs enough of
    them that about a fifth land in test; judged over `DISTINCT_MIN_SEEDS` or more."""
    if len(tasks) < DISTINCT_MIN_SEEDS:
        return None
    own = level is None or level == get_template(template_id).difficulty
    share = DISTINCT_SHARE if own else DISTINCT_SHARE_OTHER
    distinct = len({(t.persona, t.goal) for t in tasks})
    least = math.ceil(share * len(tasks))
    if distinct >= least:
        return None
    return (
        f"only {distinct} distinct instances (persona, goal) over {len(tasks)} seeds; want {least}"
    )


def _where(exc: BaseException) -> str:
    """The exception, and the last line of template code it passed through (file:line)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/tasks/" in f.filename]
    place = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{exc!r}{place}"


def _priors(template_id: str, answers: list[str | None], report: TemplateReport) -> list[Problem]:
    """The prior of the template's answers; a problem when one constant answer passes too
    many instances (judged over `PRIOR_MIN_SEEDS` seeds or more)."""
    report.prior = prior_share(answers)
    report.prior_seeds = sum(a is not None for a in answers)
    limit = get_template(template_id).balanced or PRIOR_LIMIT
    if report.prior is None or report.prior_seeds < PRIOR_MIN_SEEDS or report.prior <= limit:
        return []
    what = f"the most common answer is expected in {report.prior:.0%} of instances (> {limit:.0%})"
    return [Problem(template_id, -1, what)]


def _policies(world: World, task: Task, report: TemplateReport) -> list[str]:
    """Run the generic policies on the instance; count them into `report`, return those
    that passed (each must fail)."""
    outcomes = reference_outcomes(world, task)
    extra = extra_damage(world, task, outcomes)  # reads the reference's end state
    undo, unpaired = undo_runs(world, task, outcomes)
    report.unpaired |= unpaired
    out = []
    early = claim_first(world, task)
    for run in [*undo, *messages_only(task), *typed_in(task, outcomes), *extra, *early]:
        graded, errors = replay(world, task, run.calls, run.answer)
        added = {f"call {i} " for i in range(len(task.solution), len(run.calls))}
        if any(e.startswith(tuple(added)) for e in errors):
            continue  # the site refuses the call added (a closed deal is locked): no run
        if run.kind == "claim-first" and errors:
            continue  # the message needs the work first (a channel it creates): no run
        tally = report.policies[run.kind]
        tally.run += 1
        if graded.passed and run.kind in REPORTED_ONLY:
            report.loose.append(f"seed {task.seed}: {run.label}")
        elif graded.passed:
            out.append(f"policy {run.kind} passed: {run.label}")
        else:
            tally.killed += 1
    return out


def _instance_problems(world: World, task: Task) -> list[str]:
    registry = load_tools()
    unknown = sorted({c.name for c in task.solution if c.name not in registry})
    out = [f"reference calls unknown tool {name!r}" for name in unknown]
    g, errors = play(world, task)
    out += [f"reference solution {e}" for e in errors]
    if (g.reward, g.passed) != (1.0, True):
        failed = [f"{c.name}: {c.detail}" for c in g.checks if not c.passed]
        failed += [f"collateral {d}" for d in g.collateral]
        out.append(f"reference solution scored {g.reward} (failed: {failed})")
    world.reset()
    with world.initial_connection() as before, world.engine.connect() as after:
        noop = grade(task, before, after, None)
    if noop.reward != 0 or noop.passed:
        out.append(f"doing nothing scored {noop.reward}")
    steps = state_changing_steps(task)
    if not steps:
        out.append("the task neither changes state nor needs an answer")
    for i in steps:
        if play(world, task, skip=i)[0].passed:
            out.append(f"passes without step {i}")
    return out


def _mutation(world: World, task: Task, report: TemplateReport) -> list[str]:
    """Run every mutant of the instance; count them into `report`, return the survivors.
    A mutant shares the reference's calls up to the one it changes, so each replay starts
    from a checkpoint taken there on the reference's run (not for tasks with a simulated
    requester, whose state lives outside the database)."""
    with world.initial_connection() as initial:
        found = mutants(task, initial)
    shared = [_shared_prefix(task.solution, m.calls) for m in found]
    points: dict[int, Checkpoint | None] = {}
    if task.hidden is None and world.can_checkpoint:
        points = dict.fromkeys(n for n in shared if n > 0)
    replay(world, task, task.solution, task.answer, save=points)
    reference = state_of(world)
    score, out = MutationScore(built=len(found)), []
    for m, n in zip(found, shared, strict=True):
        point = points.get(n)
        start = (n, point) if point is not None else None
        graded, _ = replay(world, task, m.calls, m.answer, start=start)
        if not graded.passed:
            score.killed += 1
        elif not m.kind.startswith("answer.") and state_of(world) == reference:
            score.equivalent += 1
        elif (why := _declared(task, m)) is not None:
            score.declared += 1
            report.declared.setdefault(f"{m.kind} {m.tool}.{m.arg}", why)
        else:
            score.survived += 1
            out.append(f"mutant survived: {m.label}")
    report.mutation.add(score)
    return out


def _shared_prefix(reference: Sequence[ToolCall], calls: Sequence[ToolCall]) -> int:
    """How many leading calls `calls` shares with the reference solution."""
    n = 0
    for a, b in zip(reference, calls, strict=False):
        if (a.name, a.arguments) != (b.name, b.arguments):
            break
        n += 1
    return n


def _declared(task: Task, m: Mutant) -> str | None:
    return next((e.why for e in task.equivalent if e.covers(m)), None)


def state_of(world: World) -> list[tuple[Any, ...]]:
    """The episode's changes with timestamps left out (a mutant that takes another code
    path may read the simulated clock a different number of times)."""
    with world.initial_connection() as before, world.engine.connect() as after:
        changes = diff(before, after)
    return [
        (c.table, c.row_id, _timeless(c.table, c.before), _timeless(c.table, c.after))
        for c in changes
    ]


def _timeless(table: str, row: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if row is None:
        return None
    columns = Base.metadata.tables[table].columns
    return tuple(
        sorted((k, v) for k, v in row.items() if not isinstance(columns[k].type, DateTime))
    )
