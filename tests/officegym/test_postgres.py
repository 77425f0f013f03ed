"""The same models, tools and graders on PostgreSQL (the local server on
127.0.0.1:5432; `./scripts/test` starts it when it is installed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from officegym.changes import diff
from officegym.tasks import make_task
from officegym.tasks.validate import play
from officegym.world import World, read_identity, stored_identity
from tests.postgres import postgres_world

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_world() -> Iterator[World]:
    with postgres_world() as world:
        yield world


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
