"""Shared fixtures: a fresh seeded world per test (the image is cached; a World costs ~1 ms)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.web import create_app
from officegym.world import World, world_image
from tests.gym.openai_stub import ScriptedModel

# A browser action's time limit in every env the tests make, in this process and the
# ones it starts (Ray workers, the CLI): the tests judge what an action does, not how
# fast a loaded machine does it (CI once ran a click's navigation past the default 3 s).
# An action that cannot be done still fails at once (an unknown element id).
os.environ.setdefault("OFFICEGYM_ACTION_TIMEOUT_MS", "20000")


def default_world(url: str = "sqlite://") -> Iterator[World]:
    """The default world, seed 0, fresh in the database at `url` (closed after use)."""
    w = World(world_image("default", 0), url=url)
    yield w
    w.close()


@pytest.fixture
def world() -> Iterator[World]:
    """The default world, seed 0, restored fresh for this test."""
    yield from default_world()


@pytest.fixture(scope="module")
def module_world() -> Iterator[World]:
    """The default world, seed 0, shared by a module's tests: for tests that restore it
    (replays reset it) or only add to it in places of their own."""
    yield from default_world()


@pytest.fixture
def file_world(tmp_path: Path) -> Iterator[World]:
    """The default world in a SQLite file of its own, as `officegym serve` keeps it."""
    yield from default_world(f"sqlite:///{tmp_path / 'world.sqlite'}")


@pytest.fixture
def db(world: World) -> Iterator[Session]:
    """A session on this test's world (for setting up and reading what requests committed)."""
    with world.session() as s:
        yield s


@pytest.fixture
def web_app(world: World) -> Flask:
    """The web application over this test's world."""
    return create_app(world, config={"TESTING": True, "SECRET_KEY": "test"})


@pytest.fixture
def client(web_app: Flask) -> FlaskClient:
    """A browser-like test client, not signed in."""
    return web_app.test_client()


@pytest.fixture(scope="session")
def scripted_model() -> Iterator[ScriptedModel]:
    """One OpenAI-compatible stub server on 127.0.0.1 for the session (tests teach it the
    tasks they run)."""
    model = ScriptedModel(slow_seconds=1.5)
    yield model
    model.close()


@pytest.fixture(scope="session")
def local_ray() -> Iterator[None]:
    """One local Ray (2 CPUs) for the session; tests that use it share an xdist group, so
    only one test process starts it."""
    import ray

    from officegym.gym.distributed import init_ray

    init_ray(num_cpus=2)
    yield
    ray.shutdown()


# ---------------------------------------------------------------- red-team report

_RED_TEAM: list[dict] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collect the red-team counts the policies record (workers send them along)."""
    if report.when == "call":
        _RED_TEAM.extend(v for k, v in report.user_properties if k == "red_team")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print, per reward-hacking policy, how many episodes scored above 0 and passed."""
    if not _RED_TEAM:
        return
    tr = terminalreporter
    tr.write_sep("-", "red team: generic reward-hacking policies over every template")
    for row in sorted(_RED_TEAM, key=lambda r: r["policy"]):
        tr.write_line(
            f"{row['policy']:<26} {row['episodes']:>4} episodes  "
            f"{row['above_zero']:>4} scored above 0  {row['passed']:>3} passed"
        )
