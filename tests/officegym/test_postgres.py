"""The same models, tools and graders on PostgreSQL (the local server on
127.0.0.1:5432; `./scripts/test` starts it when it is installed)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from officegym.changes import diff
from officegym.tasks import make_task
from officegym.tasks.validate import play
from officegym.world import World, read_identity, stored_identity, world_image

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
pytestmark = pytest.mark.postgres


def _server_up() -> bool:
    try:
        with create_engine(SERVER).connect() as conn:
            conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


@pytest.fixture(scope="module")
def pg_world() -> Iterator[World]:
    if not _server_up():
        pytest.skip(f"no PostgreSQL server at {SERVER}")
    name = f"og_{uuid.uuid4().hex[:12]}"
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    world = World(world_image("default", 0), url=SERVER.rsplit("/", 1)[0] + f"/{name}")
    yield world
    world.close()
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
    admin.dispose()


def test_seeded_rows_arrive_intact(pg_world: World) -> None:
    with pg_world.engine.connect() as pg, pg_world.initial_connection() as lite:
        for table in ("org_person", "slack_message", "slack_reaction"):
            q = text(f"SELECT count(*), max(id) FROM {table}")
            assert pg.execute(q).one() == lite.execute(q).one()


@pytest.mark.parametrize("template_id", ["slack.onboard-new-hire", "slack.edit-own-message"])
def test_reference_solutions_pass_and_reset_restores(pg_world: World, template_id: str) -> None:
    task = make_task(template_id, 1)
    graded, errors = play(pg_world, task)
    assert errors == [] and (graded.reward, graded.passed) == (1.0, True)
    pg_world.reset()
    with pg_world.engine.connect() as pg, pg_world.initial_connection() as lite:
        q = text("SELECT count(*) FROM slack_message")
        assert pg.execute(q).scalar() == lite.execute(q).scalar()


def test_the_database_records_which_world_it_holds_and_diffs_ignore_it(pg_world: World) -> None:
    assert read_identity(pg_world.engine) == pg_world.image.identity
    assert stored_identity(pg_world.url) == pg_world.image.identity
    with pg_world.initial_connection() as before, pg_world.engine.connect() as after:
        assert diff(before, after) == []
    pg_world.reset()
    assert read_identity(pg_world.engine) == pg_world.image.identity
