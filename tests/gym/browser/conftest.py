"""Fixtures for browser-mode tests: real Chromium, one per test process (the shared
manager launches it once), one Slack browser env for the whole session, and the app
server over a fresh world per test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from officegym.gym.browser.manager import BrowserManager, BrowserUnavailable, shared_manager
from officegym.gym.browser.server import AppServer
from officegym.gym.browser_env import BrowserEnv
from officegym.world import World


@pytest.fixture(scope="session")
def chromium() -> BrowserManager:
    """The process's browser manager, its Chromium launched (skipped without one, except
    in CI, where a missing Chromium is a failure)."""
    manager = shared_manager()
    try:
        manager.call(manager.browser)
    except BrowserUnavailable as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Chromium: {exc}")
    return manager


@pytest.fixture(scope="session")
def browser_env(chromium: BrowserManager) -> Iterator[BrowserEnv]:
    """One Slack browser env for the session; each test resets it."""
    env = BrowserEnv(app="slack", max_steps=80)
    yield env
    env.close()


@pytest.fixture(scope="session")
def cdp_env(chromium: BrowserManager) -> Iterator[BrowserEnv]:
    """A Slack browser env whose Chromium listens for CDP (``cdp=True``), for the session."""
    env = BrowserEnv(app="slack", max_steps=80, cdp=True)
    yield env
    env.close()


@pytest.fixture(scope="session")
def env_for(browser_env: BrowserEnv) -> Iterator[Callable[[str], BrowserEnv]]:
    """A browser env per app (``slack``, ``crm``, ``cross``) and step limit, made on first
    use and kept for the session; Slack's with 80 steps is `browser_env`."""
    envs: dict[tuple[str, int], BrowserEnv] = {("slack", 80): browser_env}

    def get(app: str, max_steps: int = 80) -> BrowserEnv:
        if (app, max_steps) not in envs:
            envs[app, max_steps] = BrowserEnv(app=app, max_steps=max_steps)
        return envs[app, max_steps]

    yield get
    for env in envs.values():
        if env is not browser_env:
            env.close()


@pytest.fixture
def server(world: World) -> Iterator[AppServer]:
    """The pages' server over this test's fresh world."""
    srv = AppServer(world)
    yield srv
    srv.close()
