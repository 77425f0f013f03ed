"""`Said`, the check on what the persona posted: one place per check, and only live
messages count."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Message
from officegym.tasks import make_task
from officegym.tasks.common import next_id
from officegym.tasks.slack.said import Said
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
