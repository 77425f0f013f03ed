"""`Said`, the check on what the persona posted: one place per check, and only live
messages count."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Message
from officegym.tasks import make_task
from officegym.tasks.checks import NewRowId, RowExists, Same
from officegym.tasks.common import next_id
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


@pytest.mark.parametrize("places", [{}, {"channel_id": 1, "dm_to": 2}])
def test_a_said_check_names_exactly_one_place(places: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Said(name="x", author_id=1, **places)


def test_a_dm_deleted_after_sending_does_not_count(world: World) -> None:
    task = make_task("slack.dm-by-name", 0)
    with Session(world.initial_engine) as w:
        dm_id = next_id(w, Message)
    grade, _ = replay(world, task, task.solution, None)
    assert grade.passed
    deleted = [*task.solution, ToolCall("slack_delete_message", {"message_id": dm_id})]
    grade, errors = replay(world, task, deleted, None)
    assert not errors
    said = next(c for c in grade.checks if c.name.startswith("DM sent to"))
    assert not said.passed and "no new message" in said.detail


def test_said_frees_message_text_only_where_it_judges(world: World) -> None:
    """The text of the author's messages is free in the place the check reads (a channel,
    a thread, the DM with `dm_to`), compared with the reference's everywhere else."""
    with world.initial_connection() as db:
        dm = db.execute(
            text("SELECT id, dm_key FROM slack_channel WHERE kind = 'dm' ORDER BY id LIMIT 1")
        ).one()
        top = db.execute(text("SELECT max(id) FROM slack_channel")).scalar()
        a, b = map(int, dm.dm_key.split(","))
        [channel] = Said(name="c", author_id=a, channel_id=3).frees(db)
        [thread] = Said(name="t", author_id=a, thread_of=40).frees(db)
        [known] = Said(name="d", author_id=a, dm_to=b).frees(db)
        [fresh] = Said(name="n", author_id=a, dm_to=a + 1000).frees(db)
    row = {"user_id": a, "thread_parent_id": None, "channel_id": 3}
    assert channel.covers(row) and not channel.covers({**row, "channel_id": 4})
    assert not channel.covers({**row, "thread_parent_id": 40})  # a reply, not the channel
    assert thread.covers({**row, "thread_parent_id": 40}) and not thread.covers(row)
    assert known.covers({**row, "channel_id": dm.id}) and not known.covers(row)
    assert fresh.covers({**row, "channel_id": top + 1}) and not fresh.covers(row)
    assert not channel.covers({**row, "user_id": b})


def test_row_exists_frees_only_the_rows_its_where_names(world: World) -> None:
    """A `Same` in the where matches as it does in the check; a `NewRowId` is a row the
    episode made (an id the table did not hold), not any row."""
    check = RowExists(
        name="r",
        table="slack_message",
        where={"channel_id": NewRowId("slack_channel", {"name": "x"}), "text": Same("Hi")},
        says={"text": Says(all_of=[["hi"]])},
    )
    with world.initial_connection() as db:
        top = db.execute(text("SELECT max(id) FROM slack_channel")).scalar()
        [free] = check.frees(db)
    assert free.covers({"channel_id": top + 1, "text": "  hi"})
    assert not free.covers({"channel_id": top, "text": "hi"})
    assert not free.covers({"channel_id": top + 1, "text": "bye"})
