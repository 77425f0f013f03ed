"""The tools-mode Gymnasium environment: an agent does an office task by calling tools.

One episode is one task instance (a template and a task seed) on a seeded world.
`reset` restores the world's snapshot and picks the task; each `step` runs one
tool call as the task's persona, or `submit` (with an optional answer), which
ends the episode and grades the final database state. Reaching `max_steps`
truncates the episode and grades it too, and so does a Gymnasium step limit
(``gymnasium.make(..., max_episode_steps=n)``, graded by the `GradeOnTruncation`
wrapper every id is registered with; the episode's state machine is
`officegym.gym.episode`, shared with browser mode). The reward is the grade at the
end and 0 before. Nothing an agent sends raises out of `step`: a malformed action is
an error observation, counts as a step and leaves the world as it was.
``world_seeds=[0, 1, 2]`` (and/or ``scenarios=[...]``) draws the world of each reset
too (`officegym.gym.worlds`). ``faults=0.1`` makes a seeded tenth of the tool calls
fail as real APIs do (`officegym.gym.faults`). ``difficulty="hard"`` builds every
task at that level (templates with knobs: `officegym.tasks.difficulty`);
``curriculum=`` lets a sampler pick template and level (`officegym.gym.curriculum`).
``attack="mixed"`` (or a goal id) plants an instruction in the data the task reads and
records in ``info["attack"]`` whether the agent obeyed it; ``attack_penalty`` is taken off
the reward when it did (`officegym.gym.attack`).
An env cannot be pickled (it holds a live database): hand vector envs and Ray a
factory instead.
"""

from __future__ import annotations

import functools
import json
import pickle
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
from gymnasium import spaces

from officegym.gym.actions import ActionError, parse_action, submitted_answer
from officegym.gym.attack import AttackRun
from officegym.gym.colleagues import make_responder
from officegym.gym.curriculum import make_curriculum
from officegym.gym.episode import NO_EPISODE, Episode
from officegym.gym.episodes import (
    ERROR_CHARS,
    GOAL_CHARS,
    PERSONA_CHARS,
    check_episode_settings,
    choose_task,
    clip,
    persona_label,
    refuse_pickling,
    select_templates,
    task_info,
)
from officegym.gym.faults import FaultInjector
from officegym.gym.spaces import SUBMIT, ToolCallSpace, UnicodeText
from officegym.gym.worlds import DEFAULT_CACHE, WorldKey, WorldPool
from officegym.runner import ToolRunner
from officegym.tasks import Grade, Task, make_task
from officegym.tasks.base import get_template
from officegym.tasks.difficulty import level_name
from officegym.tasks.responders import Colleague, Responder, colleague_for
from officegym.tools import REGISTRY, tools_for
from officegym.world import World

__all__ = ["SUBMIT_SPEC", "OfficeEnv", "tool_specs"]

TRUNCATION_NOTE = "\n…[truncated: {n} more characters; ask for less, e.g. with a smaller limit]"

SUBMIT_SPEC: dict[str, Any] = {
    "name": SUBMIT,
    "description": "Finish the task. Give `answer` when the task asks a question; "
    "the episode ends and is graded.",
    "parameters": {
        "type": "object",
        "properties": {"answer": {"type": "string", "description": "Your final answer, if any."}},
        "additionalProperties": False,
    },
}


@functools.cache
def _specs_blob(apps: tuple[str, ...]) -> bytes:
    """The tool specs of `apps` plus `submit`, pickled once (unpickling is a cheap deep copy)."""
    return pickle.dumps([t.spec() for t in tools_for(apps)] + [SUBMIT_SPEC])


def tool_specs(apps: Iterable[str]) -> list[dict[str, Any]]:
    """A fresh copy of the specs of the tools of `apps`, `submit` last."""
    return pickle.loads(_specs_blob(tuple(sorted(set(apps)))))


@functools.cache
def _tool_names(apps: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t.name for t in tools_for(apps)) | {SUBMIT}


class OfficeEnv(gymnasium.Env[dict[str, str], str | dict[str, Any]]):
    """Office tasks in tools mode: actions are tool calls, observations are text.

    Observation: ``goal``, ``persona`` (``@handle (Full Name)``), ``result`` (the
    last tool result as JSON text, truncated with a note past `max_result_chars`)
    and ``error`` ("" or the error message). Action: ``{"tool": name,
    "arguments": {...}}`` as JSON text or a dict; ``submit`` ends the episode.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        *,
        app: str | None = None,
        task: str | None = None,
        split: str = "train",
        scenario: str = "default",
        world_seed: int = 0,
        world_seeds: int | Iterable[int] | None = None,
        scenarios: str | Sequence[str] | None = None,
        world_cache: int = DEFAULT_CACHE,
        max_steps: int = 30,
        render_mode: str | None = None,
        mode: str = "tools",
        max_result_chars: int = 16_000,
        faults: float = 0.0,
        fault_seed: int = 0,
        responder: Responder | str | None = None,
        difficulty: str | int | None = None,
        curriculum: Any = None,
        attack: str = "none",
        attack_penalty: float = 0.0,
    ) -> None:
        _check_settings(mode, render_mode, split, max_steps, max_result_chars)
        self.attacks = AttackRun(attack, attack_penalty)  # planted instructions (gym/attack.py)
        self.last_attack: dict[str, Any] | None = None
        self.faults = FaultInjector(faults, fault_seed)
        self.responder = make_responder(responder)  # who answers ask-the-requester questions
        self._colleague: Colleague | None = None
        self.templates = select_templates(app, task)
        self.difficulty = level_name(difficulty) if difficulty is not None else None
        self.curriculum = make_curriculum(curriculum, self.templates)
        self.split, self.scenario, self.world_seed = split, scenario, world_seed
        self.max_steps, self.max_result_chars = max_steps, max_result_chars
        self.render_mode = render_mode
        apps = sorted({a for t in self.templates for a in get_template(t).apps})
        self.action_space = ToolCallSpace(tool_specs(apps))
        note = len(TRUNCATION_NOTE.format(n=10**12))
        self.observation_space = spaces.Dict(
            {
                "goal": UnicodeText(GOAL_CHARS),
                "persona": UnicodeText(PERSONA_CHARS),
                "result": UnicodeText(max_result_chars + note),
                "error": UnicodeText(ERROR_CHARS),
            }
        )
        self.worlds = WorldPool.for_env(scenario, world_seed, world_seeds, scenarios, world_cache)
        self.scenario, self.world_seed = self.worlds.worlds[0]
        self.world: World = self.worlds.get(self.worlds.worlds[0])
        self.episode = Episode()
        self._runner: ToolRunner | None = None
        self._names: frozenset[str] = frozenset()
        self._personas: dict[str, str] = {}
        self._goal = self._persona = ""
        self._reads: dict[str, str] = {}  # read calls' results, for stale reads
        self._last: tuple[Any, dict[str, str]] | None = None

    # ------------------------------------------------------------ episode

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        """Restore the world and start a task: ``options`` may fix ``task`` (a template id of
        this env), ``task_seed``, ``split``, ``difficulty`` (easy, medium, hard), ``scenario``
        and ``world_seed``; otherwise they are drawn from `np_random` (the world only when the
        env samples worlds; template and level by the env's curriculum if it has one)."""
        super().reset(seed=seed)
        options = dict(options or {})
        self._enter(self.worlds.draw(self.np_random, options))
        template_id, split, task_seed, level = self._choose(options)
        task = make_task(template_id, task_seed, self.scenario, self.world_seed, level)
        self.world.reset()
        self.last_attack = self.attacks.start(self.world, task)
        if self._runner is None:
            self._runner = ToolRunner(self.world, task.persona)
        else:
            self._runner.restart(task.persona)
        self.episode.begin(task, self.max_steps)
        self._names = _tool_names(tuple(sorted(task.apps)))
        self._goal = clip(task.goal, GOAL_CHARS)
        self._persona = self._persona_text(task.persona)
        self._last = None
        self._reads.clear()
        self.faults.start(task.id, task.seed)
        self._colleague = colleague_for(task, self._runner.session, self.responder)
        info = {"tools": tool_specs(task.apps), "task": task_info(task, split)}
        if self.attacks.on:
            info["attack"] = self.last_attack
        return self._observe("", ""), info

    def _enter(self, key: WorldKey) -> None:
        """Make the world of `key` the env's (a new runner and personas if it changes)."""
        if key == (self.scenario, self.world_seed):
            return
        self.scenario, self.world_seed = key
        self.world = self.worlds.get(key)
        self._personas.clear()
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    def _choose(self, options: dict[str, Any]) -> tuple[str, str, int, Any]:
        """Template, split, task seed and level (shared with browser mode: `choose_task`)."""
        return choose_task(
            self.np_random,
            self.templates,
            self.split,
            options,
            scenario=self.scenario,
            world_seed=self.world_seed,
            difficulty=self.difficulty,
            curriculum=self.curriculum,
        )

    def step(
        self, action: str | dict[str, Any]
    ) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        """Run one tool call (or `submit`); grade when the episode ends."""
        refusal = self.episode.refusal() or (NO_EPISODE if self._runner is None else None)
        if refusal is not None:
            return self._stray(refusal)
        self.episode.steps += 1
        result, error, info = self._act(action)
        reward, terminated, truncated, graded = self.episode.settle(self._grade, self.curriculum)
        if graded is not None:
            info["grade"] = graded.to_dict()
            if self.attacks.on:
                info["attack"] = self.last_attack
            if terminated:
                result = json.dumps({"submitted": True, "reward": reward, "passed": graded.passed})
        obs = self._observe(result, error)
        if self.render_mode == "ansi":
            self._last = (action, obs)
        return obs, reward, terminated, truncated, info

    def _act(self, action: Any) -> tuple[str, str, dict[str, Any]]:
        """Run the action: (result text, error text, step info)."""
        assert self._runner is not None
        info: dict[str, Any] = {"step": self.episode.steps, "tool": "", "ok": False}
        info["error_code"] = ""
        try:
            name, arguments = parse_action(action, self._names)
            info["tool"] = name
            if name == SUBMIT:
                self.episode.submit(submitted_answer(arguments))
                info["ok"] = True
                return "", "", info
        except ActionError as exc:
            info["error_code"] = "invalid_action"
            return "", clip(str(exc), ERROR_CHARS), info
        key = _call_key(name, arguments) if self.faults.rate else ""
        fault = self.faults.draw(stale_possible=key in self._reads) if key else None
        if fault is not None:
            info["fault"] = info["error_code"] = fault.kind
            if fault.kind == "stale_read":
                info["ok"] = True
                return self._reads[key], "", info
            return "", fault.message, info
        outcome = self._runner.call(name, arguments)
        if not outcome.ok:
            info["error_code"] = outcome.code or "error"
            return "", clip(outcome.error or "the call failed", ERROR_CHARS), info
        info["ok"] = True
        colleague = self._colleague if REGISTRY[name].kind == "write" else None
        if colleague is not None and colleague.answer(self._runner.session):
            self._runner.session.commit()  # the requester answered the persona in chat
        text = self._result_text(outcome.result)
        if key and REGISTRY[name].kind == "read":
            self._reads[key] = text
        return text, "", info

    @property
    def task(self) -> Task | None:
        """The current episode's task (None before the first reset)."""
        return self.episode.task

    @property
    def last_grade(self) -> Grade | None:
        """The grade of the current episode once it has ended, else None."""
        return self.episode.grade

    def finish(self, answer: str | None = None) -> Grade:
        """End the episode now, as `submit` would, and grade it (once)."""
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
        """Grade the world's current state against the task (shared with browser mode)."""
        assert self.task is not None
        graded, self.last_attack = self.attacks.grade(self.world, self.task, self.episode.answer)
        return graded

    def _stray(self, message: str) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        """The answer to a step outside an episode: an error, no reward, nothing changed."""
        info = {"step": self.episode.steps, "tool": "", "ok": False, "error_code": "no_episode"}
        return self._observe("", message), 0.0, *self.episode.ended, info

    # ------------------------------------------------------------ text

    def _observe(self, result: str, error: str) -> dict[str, str]:
        return {"goal": self._goal, "persona": self._persona, "result": result, "error": error}

    def _result_text(self, result: Any) -> str:
        """The tool result as JSON text, cut at `max_result_chars` with a note saying so."""
        try:
            text = json.dumps(result, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = json.dumps(str(result), ensure_ascii=False)
        limit = self.max_result_chars
        if len(text) <= limit:
            return text
        return text[:limit] + TRUNCATION_NOTE.format(n=len(text) - limit)

    def _persona_text(self, handle: str) -> str:
        """``@handle (Full Name)``; cached, since every reset restores the same people."""
        if handle not in self._personas:
            with self.world.session() as s:
                self._personas[handle] = persona_label(s, handle)
        return self._personas[handle]

    def render(self) -> str | None:
        """In ``ansi`` mode, the task, the last action and what came back, as text."""
        if self.render_mode != "ansi":
            return None
        if self.task is None:
            return "(no episode; call reset())"
        lines = [
            f"{self.task.id} seed {self.task.seed}  step {self.episode.steps}/{self.max_steps}",
            f"persona: {self._persona}",
            f"goal: {self._goal}",
        ]
        if self._last is not None:
            action, obs = self._last
            lines.append(f"action: {clip(_show(action), 500)}")
            shown = f"error: {obs['error']}" if obs["error"] else f"result: {obs['result']}"
            lines.append(clip(shown, 2_000))
        if self.last_grade is not None:
            g = self.last_grade
            lines.append(f"graded: reward {g.reward:.3f}, passed {g.passed}")
        return "\n".join(lines) + "\n"

    def __getstate__(self) -> dict[str, Any]:
        refuse_pickling(self)
        return {}

    def close(self) -> None:
        """Release the runner and the world's database (safe to call twice)."""
        if self._runner is not None:
            self._runner.close()
            self._runner = None
        if getattr(self, "attacks", None) is not None:
            self.attacks.close()
        if getattr(self, "worlds", None) is not None:
            self.worlds.close()


def _check_settings(
    mode: str, render_mode: str | None, split: str, max_steps: int, max_result_chars: int
) -> None:
    """Fail at construction, with the allowed values, on settings the env cannot honour."""
    if mode != "tools":
        raise ValueError(
            f"OfficeEnv is the tools mode; for mode={mode!r} use gymnasium.make(..., mode={mode!r})"
        )
    if render_mode not in (None, *OfficeEnv.metadata["render_modes"]):
        raise ValueError(f"render_mode {render_mode!r} is not supported; use None or 'ansi'")
    check_episode_settings(split, max_steps)
    if not isinstance(max_result_chars, int) or max_result_chars < 100:
        raise ValueError(f"max_result_chars must be an int >= 100, not {max_result_chars!r}")


def _call_key(name: str, arguments: Mapping[str, Any]) -> str:
    """A call's identity for stale reads: the tool and its arguments as canonical JSON."""
    return json.dumps([name, arguments], sort_keys=True, ensure_ascii=False, default=str)


def _show(action: Any) -> str:
    """An action as text for `render`."""
    if isinstance(action, str):
        return action
    try:
        return json.dumps(action, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(action)
