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
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from gymnasium import spaces

from officegym.gym.actions import ActionError, parse_action, submitted_answer
from officegym.gym.env_core import EpisodeEnv, EpisodeSettings
from officegym.gym.episode import NO_EPISODE
from officegym.gym.episodes import (
    ERROR_CHARS,
    GOAL_CHARS,
    PERSONA_CHARS,
    clip,
    task_info,
)
from officegym.gym.faults import FaultInjector
from officegym.gym.spaces import SUBMIT, ToolCallSpace, UnicodeText
from officegym.runner import ToolRunner
from officegym.tasks.base import get_template
from officegym.tasks.responders import Colleague, colleague_for
from officegym.tools import REGISTRY, tools_for

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


class OfficeEnv(EpisodeEnv[dict[str, str], str | dict[str, Any]]):
    """Office tasks in tools mode: actions are tool calls, observations are text.

    Observation: ``goal``, ``persona`` (``@handle (Full Name)``), ``result`` (the
    last tool result as JSON text, truncated with a note past `max_result_chars`)
    and ``error`` ("" or the error message). Action: ``{"tool": name,
    "arguments": {...}}`` as JSON text or a dict; ``submit`` ends the episode.
    What episodes are drawn from is `EpisodeSettings` (`officegym.gym.env_core`), given
    as `settings` or as keyword options.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        settings: EpisodeSettings | None = None,
        *,
        render_mode: str | None = None,
        mode: str = "tools",
        max_result_chars: int = 16_000,
        faults: float = 0.0,
        fault_seed: int = 0,
        **options: Any,
    ) -> None:
        _check_settings(mode, render_mode, max_result_chars)
        self._setup(EpisodeSettings.of(settings, options))
        self.faults = FaultInjector(faults, fault_seed)
        self._colleague: Colleague | None = None
        self.max_result_chars = max_result_chars
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
        self._runner: ToolRunner | None = None
        self._names: frozenset[str] = frozenset()
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
        task, split = self._draw(options)
        self.world.reset()
        self.last_attack = self.attacks.start(self.world, task)
        if self._runner is None:
            self._runner = ToolRunner(self.world, task.persona)
        else:
            self._runner.restart(task.persona)
        self.episode.begin(task, self._step_limit(task))
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

    def _left_world(self) -> None:
        """A new world needs a new runner (and the personas are re-read)."""
        if self._runner is not None:
            self._runner.close()
            self._runner = None

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

    def render(self) -> str | None:
        """In ``ansi`` mode, the task, the last action and what came back, as text."""
        if self.render_mode != "ansi":
            return None
        if self.task is None:
            return "(no episode; call reset())"
        lines = self._render_head()
        if self._last is not None:
            action, obs = self._last
            lines.append(f"action: {clip(_show(action), 500)}")
            shown = f"error: {obs['error']}" if obs["error"] else f"result: {obs['result']}"
            lines.append(clip(shown, 2_000))
        if self.last_grade is not None:
            g = self.last_grade
            lines.append(f"graded: reward {g.reward:.3f}, passed {g.passed}")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        """Release the runner and the world's database (safe to call twice)."""
        if self._runner is not None:
            self._runner.close()
            self._runner = None
        if getattr(self, "attacks", None) is not None:
            self.attacks.close()
        if getattr(self, "worlds", None) is not None:
            self.worlds.close()


def _check_settings(mode: str, render_mode: str | None, max_result_chars: int) -> None:
    """Fail at construction, with the allowed values, on settings the env cannot honour."""
    if mode != "tools":
        raise ValueError(
            f"OfficeEnv is the tools mode; for mode={mode!r} use gymnasium.make(..., mode={mode!r})"
        )
    if render_mode not in (None, *OfficeEnv.metadata["render_modes"]):
        raise ValueError(f"render_mode {render_mode!r} is not supported; use None or 'ansi'")
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
