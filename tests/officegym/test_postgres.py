"""The same models, tools and graders on PostgreSQL (the local server on
127.0.0.1:5432; `./scripts/test` starts it when it is installed)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from sqlalchemy import inspect, text

from officegym.changes import diff
from officegym.db import ID_MAX
from officegym.runner import ToolRunner
from officegym.tasks import make_task
from officegym.tasks.validate import play
from officegym.world import World, world_image
from officegym.world_identity import read_identity, stored_identity
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


def test_a_world_loaded_by_a_process_that_imported_no_app_holds_every_table() -> None:
    """`officegym serve --db postgresql://…` builds its schema before any app is imported:
    every app's tables must still be created and loaded (once only the chat's were)."""
    code = (
        "import sys\n"
        "from sqlalchemy import create_engine, inspect\n"
        "from tests.postgres import scratch_database\n"
        "from officegym.world import World, world_image\n"
        "assert not any(m.startswith('officegym.apps.crm') for m in sys.modules)\n"
        "with scratch_database() as url:\n"
        "    world = World(world_image('default', 0), url=url)\n"
        "    names = inspect(world.engine).get_table_names()\n"
        "    print(sorted(n for n in names if not n.startswith('og_')))\n"
        "    world.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    world = World(world_image("default", 0))
    with world.initial_connection() as lite:
        expected = sorted(n for n in inspect(lite).get_table_names() if not n.startswith("og_"))
    world.close()
    assert out.stdout.strip() == str(expected)


@pytest.mark.parametrize("value", [ID_MAX + 1, 2**40, 2**63 - 1])
def test_an_id_argument_beyond_the_keys_is_not_found_not_a_database_error(
    pg_world: World, value: int
) -> None:
    """PostgreSQL cannot bind an integer beyond its int4 (a DataError: once an internal
    error of `booking_read_host_messages`): the tool door answers that no row has it."""
    runner = ToolRunner(pg_world, "kturner")
    try:
        out = runner.call("booking_read_host_messages", {"listing_id": value})
        assert (out.ok, out.code) == (False, "not_found") and f"no row has id {value}" in out.error
        assert runner.call("booking_read_host_messages", {"listing_id": 1}).ok
    finally:
        runner.close()
