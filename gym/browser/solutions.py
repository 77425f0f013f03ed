"""Browser reference solutions: a task's reference tool calls as actions in the pages.

They are derived per tool, not per task: each app's ``browser`` module
(``officegym.apps.<app>.browser``, no Playwright, pure functions) turns one of its
tool calls into action strings, ``steps(call, world, persona)``, where `world` is a
read-only session on the task's initial world and `persona` the handle of the task's
persona, for looking references (a case number, a name, a DM's people) up through
the services as that person would. A write becomes the page's form filled and submitted;
a read opens the page where the facts it returns are visible (filters as URL
parameters), so whatever the solution tells afterwards was on a page it saw. So every
template of every app with such a module can be played through the web UI. The task's
answer (or "Done.") is sent last with ``send_msg_to_user``, which ends the episode.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import gymnasium
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.db import engine_for, restore
from officegym.gym.browser.actions import format_action
from officegym.tasks import Task
from officegym.tools import ToolCall
from officegym.world import world_image

__all__ = ["DONE", "BrowserOracleAgent", "browser_solution", "browser_steps"]

DONE = "Done."


def _app_module(app: str) -> ModuleType:
    name = f"officegym.apps.{app}.browser"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise KeyError(f"app {app!r} has no browser module ({name})") from None


@functools.lru_cache(maxsize=4)
def _initial_world(scenario: str, seed: int) -> Engine:
    """A private read-only copy of a world's seeded state."""
    engine = engine_for("sqlite://")
    restore(engine, world_image(scenario, seed).data)
    return engine


def browser_steps(call: ToolCall, world: Session, persona: str) -> list[str]:
    """The UI actions doing one tool call as `persona` (a handle), from the ``STEPS`` of
    its app's ``browser`` module (each takes the call's arguments, the world and the
    person); KeyError for a tool the pages cannot do."""
    make = _app_module(call.name.split("_", 1)[0]).STEPS.get(call.name)
    if make is None:
        raise KeyError(f"no browser steps for tool {call.name!r}")
    return list(make(call.arguments, world, org.find_person(world, persona)))


def browser_solution(task: Task) -> list[str]:
    """The task's reference solution as browser actions, ending with its answer."""
    with Session(_initial_world(task.scenario, task.world_seed)) as world:
        actions = [a for c in task.solution for a in browser_steps(c, world, task.persona)]
    answer = task.answer if task.answer is not None else DONE
    return [*actions, format_action("send_msg_to_user", answer)]


class BrowserOracleAgent:
    """Plays the browser reference solution of the env's current task."""

    def __init__(self, seed: int | None = None) -> None:
        self._actions: Iterator[str] = iter(())

    def reset(self, env: gymnasium.Env, observation: dict[str, Any], info: dict) -> None:
        self._actions = iter(browser_solution(env.unwrapped.task))  # type: ignore[attr-defined]

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> str:
        return next(self._actions, format_action("send_msg_to_user", DONE))
