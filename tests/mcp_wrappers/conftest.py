"""Fixtures of the MCP tests: a world in a SQLite file, and the async backend (who is in
which channel: tests/channels.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.world import World, world_image


@pytest.fixture
def file_world(tmp_path: Path) -> Iterator[World]:
    """The default world in a SQLite file of its own, as `officegym serve` keeps it."""
    w = World(world_image("default", 0), url=f"sqlite:///{tmp_path / 'world.sqlite'}")
    yield w
    w.close()


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the backend uvicorn and the SDK's clients use here)."""
    return "asyncio"
