"""The local PostgreSQL server the postgres-marked tests use (127.0.0.1:5432, or
$OFFICEGYM_PG), and scratch databases on it that each test module creates and drops."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

from officegym.world import World, world_image

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def server_up() -> bool:
    """Whether the server answers (tests skip, saying so, when it does not)."""
    try:
        with create_engine(SERVER).connect() as conn:
            conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


@contextmanager
def scratch_database(prefix: str = "og") -> Iterator[str]:
    """A new, empty database for the block (dropped after it, even with connections left);
    yields its URL. Skips the test when no server answers."""
    if not server_up():
        pytest.skip(f"no PostgreSQL server at {SERVER}")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield SERVER.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


@contextmanager
def postgres_world(prefix: str = "og") -> Iterator[World]:
    """The default world (seed 0) in a scratch database of its own."""
    with scratch_database(prefix) as url:
        world = World(world_image("default", 0), url=url)
        try:
            yield world
        finally:
            world.close()
