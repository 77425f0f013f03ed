"""Task templates and the tasks they yield.

A template is a function ``build(w: Session, rng: random.Random) -> Spec``
registered with ``@template("<app>.<slug>", difficulty=...)``. It reads the
seeded world through `w` (a read-only session on the initial state) and returns
the goal text, the acting persona, the rubric checks, the changes the task
allows and a reference solution as tool calls. `make_task(id, seed)` turns one
(template, seed) into a `Task`, the same on every machine.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.errors import NotFound
from officegym.tasks.checks import Allow, AnswerIs, Check
from officegym.tasks.facts import Fact
from officegym.tasks.mutants import Equivalent
from officegym.tools import ToolCall
from officegym.world import world_image

__all__ = [
    "TEMPLATES",
    "Difficulty",
    "Spec",
    "Task",
    "Template",
    "load_templates",
    "make_task",
    "template",
]

Difficulty = Literal["easy", "medium", "hard"]
ID_RE = re.compile(r"^[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Spec:
    """What a template returns for one seed. A question task gives its `answer` as a typed
    fact (`officegym.tasks.facts`: `integer`, `money`, `person`, `choice`, ...): the task
    then gets the one answer check (`AnswerIs`) and the fact's own text as its reference
    answer. `equivalent` declares the near-miss mutants of the reference solution that
    this task cannot tell apart from it, each with its reason (`officegym.tasks.mutants`)."""

    goal: str
    persona: str
    checks: Sequence[Check]
    allowed: Sequence[Allow]
    solution: Sequence[ToolCall]
    answer: Fact | None = None
    equivalent: Sequence[Equivalent] = ()


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

    @property
    def app(self) -> str:
        return self.id.split(".", 1)[0]

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "difficulty": self.difficulty,
            "goal": self.goal,
            "persona": self.persona,
        }


@dataclass(frozen=True)
class Template:
    id: str
    difficulty: Difficulty
    build: Callable[[Session, random.Random], Spec]
    apps: tuple[str, ...]
    summary: str

    @property
    def app(self) -> str:
        return self.id.split(".", 1)[0]


TEMPLATES: dict[str, Template] = {}


def template(
    id: str, *, difficulty: Difficulty, apps: Sequence[str] | None = None
) -> Callable[[Callable[[Session, random.Random], Spec]], Callable[[Session, random.Random], Spec]]:
    """Register a task template. `apps` lists the apps whose tools the task needs
    (default: the id's prefix)."""
    if not ID_RE.match(id):
        raise ValueError(f"template id {id!r} must be <app>.<kebab-slug>")

    def register(
        fn: Callable[[Session, random.Random], Spec],
    ) -> Callable[[Session, random.Random], Spec]:
        if id in TEMPLATES and TEMPLATES[id].build is not fn:
            raise ValueError(f"template {id} registered twice")
        summary = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
        if not summary:
            raise ValueError(f"template {id} needs a docstring")
        TEMPLATES[id] = Template(id, difficulty, fn, tuple(apps or (id.split(".")[0],)), summary)
        return fn

    return register


def load_templates() -> dict[str, Template]:
    """Import every module under officegym.tasks.<app> (registration happens on import);
    the package walk runs once per process."""
    _import_template_modules()
    return TEMPLATES


@functools.cache
def _import_template_modules() -> None:
    import officegym.tasks as pkg

    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}."):
        if info.name.count(".") >= 3 or info.ispkg:  # officegym.tasks.<app>.<module>
            importlib.import_module(info.name)


def get_template(template_id: str) -> Template:
    if template_id not in TEMPLATES:
        load_templates()
    try:
        return TEMPLATES[template_id]
    except KeyError:
        raise NotFound(f"no task template {template_id!r}") from None


@functools.lru_cache(maxsize=8)
def _catalog(scenario: str, world_seed: int) -> Engine:
    """A read-only engine on the initial world, for templates to read from."""
    from officegym.world import World

    return World(world_image(scenario, world_seed)).initial_engine


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


@functools.lru_cache(maxsize=16384)
def make_task(template_id: str, seed: int, scenario: str = "default", world_seed: int = 0) -> Task:
    """The task of (template, seed) on world (scenario, world_seed); cached."""
    tpl = get_template(template_id)
    rng = random.Random(f"{template_id}:{seed}")
    spec = tpl.build(_catalog_session(scenario, world_seed), rng)
    if spec.answer is not None and not isinstance(spec.answer, Fact):
        raise TypeError(
            f"template {template_id}: Spec.answer must be a typed fact (officegym.tasks.facts), "
            f"not {type(spec.answer).__name__}"
        )
    checks = tuple(spec.checks)
    if spec.answer is not None:
        checks += (AnswerIs(name=f"answer: {spec.answer.describe()}", fact=spec.answer),)
    return Task(
        id=tpl.id,
        seed=seed,
        scenario=scenario,
        world_seed=world_seed,
        difficulty=tpl.difficulty,
        goal=spec.goal,
        persona=spec.persona,
        checks=checks,
        allowed=tuple(spec.allowed),
        solution=tuple(spec.solution),
        answer=spec.answer.text() if spec.answer is not None else None,
        apps=tpl.apps,
        expects=spec.answer,
        equivalent=tuple(spec.equivalent),
    )
