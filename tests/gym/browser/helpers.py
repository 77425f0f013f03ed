"""Helpers shared by the browser-mode tests."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Page

from officegym.changes import RowChange, diff
from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.server import AppServer
from officegym.gym.browser_env import BrowserEnv

T = TypeVar("T")


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


def episode_url(server: AppServer, handle: str, target: str) -> str:
    """Start an episode for `handle`; the URL that admits a browser to it and opens `target`."""
    server.new_episode(handle)
    return f"{server.url}/login/{handle}?next={target}&{server.login_query}"


def in_new_tab(manager: BrowserManager, url: str, steps: Callable[[Page], T]) -> T:
    """`steps(page)` in a new 1366x768 tab opened at `url` (run it in the browser thread)."""
    context = manager.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(url)
        return steps(page)
    finally:
        context.close()


def playwright_drivers() -> list[int]:
    """Process ids of this process's live Playwright drivers (``node ... run-driver``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid = stat.read_text().rsplit(")", 1)[1].split()[:2]
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue  # gone meanwhile
        if ppid == str(os.getpid()) and b"run-driver" in command and state != "Z":
            found.append(int(stat.parent.name))
    return found
