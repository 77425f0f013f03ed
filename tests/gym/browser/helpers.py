"""Helpers shared by the browser-mode tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from officegym.changes import RowChange, diff
from officegym.gym.browser_env import BrowserEnv


def changes(env: BrowserEnv) -> list[RowChange]:
    """What the episode changed so far (read markers excluded)."""
    world = env.world
    with (
        env.server.exclusive(),
        world.initial_connection() as before,
        world.engine.connect() as now,
    ):
        return diff(before, now)


def on_page(env: BrowserEnv, fn: Callable[[Page], Any]) -> Any:
    """`fn(page)` in the browser manager's thread (Playwright objects live there)."""
    return env.manager.call(fn, env.page)


def open_page(env: BrowserEnv, path: str) -> str:
    """Open `path` and return the env's observation text of it."""
    on_page(env, lambda p: p.goto(env.server.url + path))
    obs, *_ = env.step("noop()")
    return obs["axtree"]
