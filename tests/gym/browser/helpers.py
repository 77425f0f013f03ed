"""Helpers shared by the browser-mode tests."""

from __future__ import annotations

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
