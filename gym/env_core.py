"""What both envs are built on, whatever the agent acts through: their settings as one
typed object (`EpisodeSettings`) and the base class (`EpisodeEnv`) that turns them into
drawn worlds and tasks, runs the episode's state machine (`officegym.gym.episode`),
grades the final state, and holds the simulated colleague and the planted attacks.

Tools mode (`tools_env`) and browser mode (`browser_env`) add how an agent acts and
what it sees. Both take the settings as keyword options, as ``gymnasium.make`` passes
them (``gymnasium.make("officegym/slack-v0", max_steps=20)``), or as one object
(``OfficeEnv(EpisodeSettings(app="slack", max_steps=20))``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import gymnasium

from officegym.gym.attack import DEFAULT_PENALTY, AttackRun
from officegym.gym.colleagues import make_responder
from officegym.gym.curriculum import make_curriculum
from officegym.gym.episode import Episode
from officegym.gym.episodes import (
    choose_task,
    persona_label,
    refuse_pickling,
    select_templates,
)
from officegym.gym.worlds import DEFAULT_CACHE, WorldKey, WorldPool
from officegym.tasks import Grade, Task
from officegym.tasks.base import STEP_FLOOR
from officegym.tasks.difficulty import level_name
from officegym.tasks.instances import InstanceStore, instance, open_store
from officegym.tasks.responders import Responder
from officegym.tasks.splits import SPLITS
from officegym.world import World

__all__ = ["EpisodeEnv", "EpisodeSettings"]

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")


@dataclasses.dataclass(frozen=True, kw_only=True)
class EpisodeSettings:
    """What an env draws its episodes from and how long they run, in both modes.

    Tasks: one ``app``'s templates or one ``task`` (template id), from ``split``, at
    ``difficulty`` (None: each template's own), or as a ``curriculum`` picks.
    Worlds: ``scenario``/``world_seed``, or drawn per reset from ``world_seeds`` and/or
    ``scenarios`` (`officegym.gym.worlds`), ``world_cache`` of them kept open.
    ``max_steps`` truncates and grades (None: each task's own limit, `Task.step_limit`,
    three times its reference solution's calls and at least 30). ``responder`` answers
    ask-the-requester questions (`officegym.gym.colleagues`). ``attack`` plants an
    instruction in the data a task reads and ``attack_penalty`` is taken off the reward
    when it is obeyed (`officegym.gym.attack`). ``instance_pool`` draws each reset's task
    from the instances built ahead for its world (`officegym.tasks.instances`;
    ``officegym instances build``), so a fresh instance costs what a cached one does."""

    app: str | None = None
    task: str | None = None
    split: str = "train"
    difficulty: str | int | None = None
    curriculum: Any = None
    scenario: str = "default"
    world_seed: int = 0
    world_seeds: int | Iterable[int] | None = None
    scenarios: str | Sequence[str] | None = None
    world_cache: int = DEFAULT_CACHE
    max_steps: int | None = None
    responder: Responder | str | None = None
    attack: str = "none"
    attack_penalty: float = DEFAULT_PENALTY  # obeying earns 0: less than ignoring
    instance_pool: bool = False

    def __post_init__(self) -> None:
        """Fail when made, with the allowed values, on a bad split or step limit."""
        if self.split not in SPLITS:
            raise ValueError(f"unknown split {self.split!r}; use one of {sorted(SPLITS)}")
        limit = self.max_steps
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
        ):
            raise ValueError(f"max_steps must be a positive int or None, not {limit!r}")

    @classmethod
    def of(cls, settings: EpisodeSettings | None, options: Mapping[str, Any]) -> EpisodeSettings:
        """`settings` itself, or the settings the keyword `options` name (an unknown one is
        an error that lists the known ones)."""
        if settings is not None:
            if options:
                raise TypeError(f"give settings or keyword options, not both: {sorted(options)}")
            return settings
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(options) - known
        if unknown:
            raise TypeError(f"unknown env option(s) {sorted(unknown)}; known: {sorted(known)}")
        return cls(**options)


class EpisodeEnv(gymnasium.Env[ObsT, ActT], Generic[ObsT, ActT]):
    """The part of an officegym env both modes share: settings, worlds, task draws, the
    episode state machine, grading, personas, the colleague and attacks."""

    def _setup(self, settings: EpisodeSettings) -> None:
        """Build what the settings name (called first by each mode's constructor)."""
        self.settings = settings
        self.attacks = AttackRun(settings.attack, settings.attack_penalty)
        self.last_attack: dict[str, Any] | None = None
        self.responder = make_responder(settings.responder)
        self.templates = select_templates(settings.app, settings.task)
        difficulty = settings.difficulty
        self.difficulty = level_name(difficulty) if difficulty is not None else None
        self.curriculum = make_curriculum(settings.curriculum, self.templates)
        self.split = settings.split
        self.max_steps = settings.max_steps or STEP_FLOOR  # the episode's; set per task at reset
        self.worlds = WorldPool.for_env(settings.scenario, settings.world_seed,
                                        settings.world_seeds, settings.scenarios,
                                        settings.world_cache)  # fmt: skip
        self.scenario, self.world_seed = self.worlds.worlds[0]
        self.world: World = self.worlds.get(self.worlds.worlds[0])
        if settings.instance_pool:
            self._store()  # a missing store fails when the env is made, not at a reset
        self.episode = Episode()
        self._personas: dict[str, str] = {}
        self._goal = self._persona = ""  # the current episode's, as the agent reads them

    def _step_limit(self, task: Task) -> int:
        """The episode's step limit: the env's ``max_steps``, else the task's own (kept in
        `max_steps` for the episode)."""
        self.max_steps = self.settings.max_steps or task.step_limit
        return self.max_steps

    def _draw(self, options: Mapping[str, Any] | None) -> tuple[Task, str]:
        """The world and task of a reset (``options`` may fix them, else drawn from
        `np_random`), as (task, its split); the world becomes the env's."""
        opts = dict(options or {})
        self._enter(self.worlds.draw(self.np_random, opts))
        template_id, split, task_seed, level = choose_task(
            self.np_random,
            self.templates,
            self.split,
            opts,
            scenario=self.scenario,
            world_seed=self.world_seed,
            difficulty=self.difficulty,
            curriculum=self.curriculum,
            store=self._store() if self.settings.instance_pool else None,
        )
        task = instance(template_id, task_seed, self.scenario, self.world_seed, level,
                        self._store() if self.settings.instance_pool else None)  # fmt: skip
        return task, split

    def _store(self) -> InstanceStore:
        """The instance store of the env's current world (an error naming the command that
        builds it when there is none for this code)."""
        store = open_store(self.scenario, self.world_seed)
        if store is None:
            which = (
                f"--task {self.settings.task}"
                if self.settings.task
                else f"--app {self.settings.app}"
            )
            raise ValueError(
                f"instance_pool=True but no instance store of world {self.scenario}/"
                f"{self.world_seed} was built for this version of officegym; build it: "
                f"officegym instances build {which} --scenario {self.scenario} "
                f"--world-seed {self.world_seed}"
            )
        return store

    def _enter(self, key: WorldKey) -> None:
        """Make the world of `key` the env's (`_left_world` lets a mode drop what it held)."""
        if key == (self.scenario, self.world_seed):
            return
        self.scenario, self.world_seed = key
        self.world = self.worlds.get(key)
        self._personas.clear()
        self._left_world()

    def _left_world(self) -> None:
        """What a mode drops when its world changes (nothing by default)."""

    def _exclusive(self) -> contextlib.AbstractContextManager[Any]:
        """Held while grading or reading people: no request touches the database meanwhile
        (browser mode's server; nothing in tools mode)."""
        return contextlib.nullcontext()

    @property
    def task(self) -> Task | None:
        """The current episode's task (None before the first reset)."""
        return self.episode.task

    @property
    def last_grade(self) -> Grade | None:
        """The grade of the current episode once it has ended, else None."""
        return self.episode.grade

    def finish(self, answer: str | None = None) -> Grade:
        """End the episode now, as submitting would, and grade the final state (once); for
        agents acting on their own."""
        if self.task is None:
            raise RuntimeError("call reset() before finish()")
        if not self.episode.done:
            self.episode.submit(answer)
        return self.episode.end(self._grade, self.curriculum, truncated=False)

    def truncate(self) -> Grade | None:
        """End a running episode as truncated and grade it (`GradeOnTruncation` calls this
        when a step limit outside the env ends it); None if no episode is running."""
        if self.episode.refusal() is not None:
            return None
        return self.episode.end(self._grade, self.curriculum, truncated=True)

    def _grade(self) -> Grade:
        """Grade the world's current state against the task (and the attack, if any)."""
        assert self.task is not None
        with self._exclusive():
            graded, self.last_attack = self.attacks.grade(
                self.world, self.task, self.episode.answer
            )
            return graded

    def _persona_text(self, handle: str) -> str:
        """``@handle (Full Name)``; cached, since every reset restores the same people."""
        if handle not in self._personas:
            with self._exclusive(), self.world.session() as s:
                self._personas[handle] = persona_label(s, handle)
        return self._personas[handle]

    def _render_head(self) -> list[str]:
        """The first lines of an ``ansi`` rendering: the task, the step, who acts, the goal."""
        assert self.task is not None
        return [
            f"{self.task.id} seed {self.task.seed}  step {self.episode.steps}/{self.max_steps}",
            f"persona: {self._persona}",
            f"goal: {self._goal}",
        ]

    def __getstate__(self) -> dict[str, Any]:
        refuse_pickling(self)
        return {}
