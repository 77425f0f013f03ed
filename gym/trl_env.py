"""TRL's `GRPOTrainer(environment_factory=...)`: officegym's tools mode as the class TRL
instantiates once per rollout.

TRL's contract (trl 1.16, `GRPOTrainer`): the factory makes an instance with no arguments;
`reset(**row)` starts a rollout from a dataset row and returns text appended to the
row's last user message; every public method is a tool, described to the model by
transformers' `get_json_schema` (type hints and a Google-style docstring) and called with
the model's arguments as keywords; `get_reward()` scores the finished rollout.

`environment_factory(env)` builds that class for one app env (``slack``, ``crm``,
``sheets``, ``booking``, ``cross``, ``ask``: the templates of `officegym/<env>-v0`) from the
tool registry: one method per tool of the apps those templates use (its name, its
description, its arguments typed from the same JSON schema the Gym and MCP show,
``submit`` included), each stepping one tools-mode env and returning the observation's
text — the result, or ``Error: ...``. The grade is never returned to the model:
`get_reward` reads it (grading the state as it stands when the model stopped without
calling ``submit``). `trl_dataset` lists rows over templates' split seeds (``template``,
``seed``, ``split``, ``difficulty``, ``environment``, ``prompt``); for several envs pass
TRL a dict ``{env: environment_factory(env)}``, which reads each row's ``environment``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import gymnasium

from officegym.gym import chat
from officegym.gym.spaces import SUBMIT
from officegym.gym.tool_functions import typed_function
from officegym.gym.tools_env import tool_specs

__all__ = ["OfficeToolEnv", "environment_factory", "trl_dataset"]

PROMPT = "Do the office task below with the tools you have."


class OfficeToolEnv:
    """One rollout's officegym episode, driven by tool methods (subclasses add them)."""

    env: str = "slack"
    env_kwargs: Mapping[str, Any] = {}

    def __init__(self) -> None:
        self._env = gymnasium.make(f"officegym/{self.env}-v0", **dict(self.env_kwargs))
        self._reward: float | None = None
        self._done = True

    def reset(self, **row: Any) -> str:
        """Start the episode a dataset row names (``template``, ``seed``, and optionally
        ``split``, ``difficulty``); returns the task as the model should read it, after a
        blank line: TRL appends it to the row's prompt ("...tools you have.You are @..."
        ran together without one)."""
        options: dict[str, Any] = {"task": row["template"], "task_seed": int(row["seed"])}
        options |= {k: row[k] for k in ("split", "difficulty") if row.get(k) is not None}
        obs, _ = self._env.reset(options=options)
        self._reward, self._done = None, False
        return "\n\n" + chat.opening_message(obs)["content"]

    def get_reward(self) -> float:
        """The episode's grade (graded now if the model stopped without submitting)."""
        if not self._done:
            self._step(SUBMIT, {})
        return float(self._reward or 0.0)

    def _step(self, tool: str, arguments: dict[str, Any]) -> str:
        if self._done:
            return "Error: the task is finished; no more calls are taken."
        obs, reward, terminated, truncated, _ = self._env.step(
            {"tool": tool, "arguments": arguments}
        )
        if terminated or truncated:
            self._done, self._reward = True, float(reward)
            return "Submitted." if terminated else "Error: the step limit is reached."
        return chat.tool_result_text(obs)

    def _close(self) -> None:
        """Close the env (private: TRL takes every public method for a tool)."""
        self._env.close()


@functools.cache
def environment_factory(env: str = "slack", *, max_steps: int | None = None) -> type[OfficeToolEnv]:
    """The environment class TRL takes for app env `env` (cached per arguments); each
    episode's step limit is `max_steps`, else its task's own."""
    from officegym.gym.episodes import select_templates
    from officegym.tasks import load_templates

    templates = load_templates()
    apps = sorted({a for t in select_templates(env, None) for a in templates[t].apps})
    methods = {spec["name"]: _tool_method(spec) for spec in tool_specs(tuple(apps))}
    attrs = {"env": env, "env_kwargs": {"max_steps": max_steps}, **methods}
    return type(f"Office{env.title()}Env", (OfficeToolEnv,), attrs)


def _tool_method(spec: Mapping[str, Any]) -> Callable[..., str]:
    """A method stepping tool `spec` with the keywords it is called with."""
    name = spec["name"]

    def step(self: OfficeToolEnv, arguments: dict[str, Any]) -> str:
        return self._step(name, arguments)

    return typed_function(spec, step, method=True)


def trl_dataset(
    templates: Iterable[str],
    *,
    split: str = "train",
    per_template: int = 8,
    difficulty: str | None = None,
) -> list[dict[str, Any]]:
    """Rows for `GRPOTrainer`'s ``train_dataset``: `per_template` instances of each template
    from `split` (its split seeds, in order), each with a short ``prompt`` the env's
    `reset` completes with the task. Wrap with ``datasets.Dataset.from_list``."""
    from officegym.tasks.splits import split_seeds

    rows = []
    for template in templates:
        for seed in itertools.islice(split_seeds(template, split), per_template):
            rows.append(
                {"prompt": [{"role": "user", "content": PROMPT}], "template": template,
                 "seed": seed, "split": split, "difficulty": difficulty,
                 "environment": template.split(".", 1)[0]}
            )  # fmt: skip
    return rows
