"""Task templates and the tasks they yield.

A template is a function ``build(w: Session, rng: random.Random) -> Spec``
registered with ``@template("<app>.<slug>", difficulty=...)`` (with ``knobs=`` it takes a
third argument, the `Level` it is built at: `officegym.tasks.difficulty`). It reads the
seeded world through `w` (a read-only session on the initial state) and returns
the goal text, the acting persona, the rubric checks, the changes the task
allows and a reference solution as tool calls. `make_task(id, seed)` turns one
(template, seed) into a `Task`, the same on every machine.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
import re
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.errors import NotFound
from officegym.tasks.checks import Allow, AnswerIs, Check
from officegym.tasks.difficulty import (
    LEVELS,
    Difficulty,
    Level,
    check_knobs,
    level_name,
    make_level,
)
from officegym.tasks.facts import Fact
from officegym.tasks.freedom import Free
from officegym.tasks.hidden import Hidden
from officegym.tasks.mutants import Equivalent
from officegym.tasks.steps import Step, flatten
from officegym.template_index import template_ids, template_modules
from officegym.tools import ToolCall
from officegym.world import world_image

__all__ = [
    "TEMPLATES",
    "BrokenTemplateWarning",
    "Difficulty",
    "Level",
    "Spec",
    "Task",
    "Template",
    "load_templates",
    "make_task",
    "task_level",
    "template",
]

ID_RE = re.compile(r"^[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$")
# An episode's step limit unless the env is given one: a multiple of the reference
# solution's calls, with a floor (long-horizon references need up to 135 calls).
STEP_FLOOR, STEP_FACTOR = 30, 3


@dataclass(frozen=True)
class Spec:
    """What a template returns for one seed: the goal, who acts, and the work as `steps`
    (`officegym.tasks.steps`), each carrying its reference calls, the checks of the state
    they leave, the changes it allows, what of that state is free and the mutants it
    cannot tell apart, each with its reason. A question task gives its `answer` as a
    typed fact (`officegym.tasks.facts`: `integer`, `money`, `person`, `choice`, ...): the
    task then gets the one answer check (`AnswerIs`) and the fact's own text as its
    reference answer. `hidden` is what only the requester knows (ask-the-requester)."""

    goal: str
    persona: str
    steps: Sequence[Step] = ()
    answer: Fact | None = None
    hidden: Hidden | None = None  # what only the requester knows (ask-the-requester tasks)

    def flat(self) -> Step:
        """The steps as one, in order (what its task holds)."""
        return flatten(self.steps)


@dataclass(frozen=True)
class Task:
    """One instance of a template: everything needed to run and grade an episode."""

    id: str
    seed: int
    scenario: str
    world_seed: int
    difficulty: Difficulty
    goal: str
    persona: str
    checks: tuple[Check, ...]
    allowed: tuple[Allow, ...]
    solution: tuple[ToolCall, ...]
    answer: str | None = None  # the reference answer's text
    apps: tuple[str, ...] = field(default_factory=tuple)
    expects: Fact | None = None  # the typed answer a question task expects
    equivalent: tuple[Equivalent, ...] = ()
    hidden: Hidden | None = None  # answered in chat by a simulated colleague
    params: tuple[tuple[str, Any], ...] = ()  # the knob values the task was built with
    free: tuple[Free, ...] = ()  # declared freedoms from the reference's end state

    @property
    def app(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def step_limit(self) -> int:
        """The steps an episode of this task may take when the env is given no
        ``max_steps``: `STEP_FACTOR` times its reference's calls, at least `STEP_FLOOR`."""
        return max(STEP_FLOOR, STEP_FACTOR * len(self.solution))

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "difficulty": self.difficulty,
            "params": dict(self.params),
            "goal": self.goal,
            "persona": self.persona,
            "step_limit": self.step_limit,
        }


@dataclass(frozen=True)
class Template:
    """A registered template: `difficulty` is its default level; with `knobs` (one value
    per level each) it can be built at every level, and `build` then takes a `Level`."""

    id: str
    difficulty: Difficulty
    build: Callable[..., Spec]
    apps: tuple[str, ...]
    summary: str
    knobs: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    needs: str = ""  # what a world must hold for the template; "" = it builds on every world
    balanced: float | None = None  # the most common answer's allowed share (yes/no: 0.55)

    @property
    def app(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def levels(self) -> tuple[Difficulty, ...]:
        """The levels the template can be built at (only its own without knobs)."""
        return LEVELS if self.knobs else (self.difficulty,)


TEMPLATES: dict[str, Template] = {}


def template(
    id: str,
    *,
    difficulty: Difficulty,
    apps: Sequence[str] | None = None,
    knobs: Mapping[str, Sequence[Any]] | None = None,
    needs: str = "",
    balanced: float | None = None,
) -> Callable[[Callable[..., Spec]], Callable[..., Spec]]:
    """Register a task template. `apps` lists the apps whose tools the task needs
    (default: the id's prefix); `knobs` its difficulty knobs, one value per level
    (`officegym.tasks.difficulty`), in which case `build` takes a third argument, the
    `Level`. `needs` says what a world must hold for a template that cannot build on
    every world (the 25-person startup is too small for a team-wide review); on such a
    world its build raises LookupError, and `officegym tasks` shows the need.
    `balanced` allows a question template's most common answer more than validate's 10%
    of instances (a yes/no question: 0.55)."""
    if not ID_RE.match(id):
        raise ValueError(f"template id {id!r} must be <app>.<kebab-slug>")
    level_name(difficulty)
    checked = check_knobs(id, knobs or {})

    def register(fn: Callable[..., Spec]) -> Callable[..., Spec]:
        if id in TEMPLATES and TEMPLATES[id].build is not fn:
            raise ValueError(f"template {id} registered twice")
        summary = first_sentence(fn.__doc__ or "")
        if not summary:
            raise ValueError(f"template {id} needs a docstring")
        takes_level = len(inspect.signature(fn).parameters) >= 3
        if takes_level != bool(checked):
            raise ValueError(
                f"template {id}: build(w, rng, level) goes with knobs=..., build(w, rng) "
                "without them"
            )
        app_ids = tuple(apps or (id.split(".")[0],))
        TEMPLATES[id] = Template(id, difficulty, fn, app_ids, summary, checked, needs, balanced)
        return fn

    return register


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'`])")


def first_sentence(doc: str) -> str:
    """A docstring's first sentence, whole even when it wraps over several lines (the
    summary `officegym tasks` shows): its first paragraph up to the first full stop."""
    paragraph = " ".join(inspect.cleandoc(doc).split("\n\n", 1)[0].split())
    return _SENTENCE_END.split(paragraph, maxsplit=1)[0]


def load_templates() -> dict[str, Template]:
    """Import every template module (registration happens on import), once per process.
    A module that fails to import is reported in a warning naming it and its error, and
    its templates are left out: one broken template does not take down the others."""
    _import_template_modules()
    return TEMPLATES


@functools.cache
def _import_template_modules() -> None:
    for name in template_modules():
        _import_template_module(name)


@functools.cache
def _import_template_module(name: str) -> bool:
    """Import one template module; False (with a warning) if it fails."""
    try:
        importlib.import_module(name)
    except Exception as exc:  # any error in a template's own code; reported, not fatal
        warnings.warn(
            f"task template module {name} failed to import and is left out: "
            f"{type(exc).__name__}: {exc}",
            BrokenTemplateWarning,
            stacklevel=2,
        )
        return False
    return True


class BrokenTemplateWarning(UserWarning):
    """A task template module could not be imported; its templates are unavailable."""


def get_template(template_id: str) -> Template:
    """The template `template_id`, importing only the module that declares it."""
    if template_id not in TEMPLATES:
        module = template_ids().get(template_id)
        if module is None or not _import_template_module(module):
            load_templates()
    try:
        return TEMPLATES[template_id]
    except KeyError:
        raise NotFound(f"no task template {template_id!r}") from None


@functools.lru_cache(maxsize=8)
def _catalog(scenario: str, world_seed: int) -> Engine:
    """A read-only engine on the initial world, for templates to read from (the process's
    seeded copy, `officegym.world.seeded_engine`)."""
    from officegym.world import seeded_engine

    return seeded_engine(world_image(scenario, world_seed))


_SESSIONS = threading.local()


def _catalog_session(scenario: str, world_seed: int) -> Session:
    """This thread's read-only session on the initial world. Templates only read, so one
    session serves every build: rows they loaded before come from its identity map."""
    sessions: dict[tuple[str, int], Session] = _SESSIONS.__dict__.setdefault("by_world", {})
    key = (scenario, world_seed)
    if key not in sessions:
        sessions[key] = Session(_catalog(scenario, world_seed), autoflush=False)
        if len(sessions) > _catalog.cache_info().maxsize:  # as many as engines are cached
            sessions.pop(next(iter(sessions))).close()
    return sessions[key]


def task_level(tpl: Template, difficulty: object = None) -> Difficulty:
    """The level `difficulty` names for `tpl` (None: its default), or a ValueError when the
    template cannot be built at it."""
    level = tpl.difficulty if difficulty is None else level_name(difficulty)
    if level not in tpl.levels:
        raise ValueError(
            f"template {tpl.id} has no difficulty knobs: it is built at {tpl.difficulty} only, "
            f"not {level}"
        )
    return level


def make_task(
    template_id: str,
    seed: int,
    scenario: str = "default",
    world_seed: int = 0,
    difficulty: Difficulty | int | None = None,
) -> Task:
    """The task of (template, seed) on world (scenario, world_seed) at a level (None: the
    template's default); cached."""
    level = task_level(get_template(template_id), difficulty)
    return _make_task(template_id, seed, scenario, world_seed, level)


@functools.lru_cache(maxsize=16384)
def _make_task(
    template_id: str, seed: int, scenario: str, world_seed: int, level: Difficulty
) -> Task:
    tpl = get_template(template_id)
    default = level == tpl.difficulty  # so a template's default instances never change
    rng = random.Random(f"{template_id}:{seed}" if default else f"{template_id}:{seed}:{level}")
    session = _catalog_session(scenario, world_seed)
    built = make_level(tpl.knobs, level)
    spec = tpl.build(session, rng, built) if tpl.knobs else tpl.build(session, rng)
    if spec.answer is not None and not isinstance(spec.answer, Fact):
        raise TypeError(
            f"template {template_id}: Spec.answer must be a typed fact (officegym.tasks.facts), "
            f"not {type(spec.answer).__name__}"
        )
    if spec.hidden is not None and set(spec.hidden.fact.values) & spec.hidden.fact.read(spec.goal):
        raise ValueError(f"template {template_id}: the goal states the hidden fact")
    work = spec.flat()
    checks = tuple(work.checks)
    if spec.answer is not None:
        checks += (AnswerIs(name=f"answer: {spec.answer.describe()}", fact=spec.answer),)
    return Task(
        id=tpl.id,
        seed=seed,
        scenario=scenario,
        world_seed=world_seed,
        difficulty=level,
        goal=spec.goal,
        persona=spec.persona,
        checks=checks,
        allowed=tuple(work.allowed),
        solution=tuple(work.calls),
        answer=spec.answer.text() if spec.answer is not None else None,
        apps=tpl.apps,
        expects=spec.answer,
        equivalent=tuple(work.equivalent),
        hidden=spec.hidden,
        params=tuple(built.params.items()),
        free=tuple(work.free),
    )


make_task.cache_clear = _make_task.cache_clear  # type: ignore[attr-defined]
