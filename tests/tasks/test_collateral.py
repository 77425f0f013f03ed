"""A task may touch a record without licensing every change to it: fields the goal did
not ask for are collateral damage, and fail the task."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from officegym.apps.crm.models import CLOSED_STAGES
from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.crm.common import crm_index
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World, world_image


def other_support_rep(world: World, task: Task) -> str:
    """A support rep who is neither the persona nor the case's owner (whom the reference
    solution looks up in the directory)."""
    owner = next(c.arguments["person"] for c in task.solution if c.name == "slack_get_person")
    with Session(world.initial_engine) as w:
        reps = crm_index(w).with_role("rep", "customer-support")
    return next(p.handle for p in reps if p.handle not in (task.persona, owner))


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World(world_image("default", 0))
    yield w
    w.close()


def test_moving_a_close_date_beside_a_requested_stage_change_is_collateral(world: World) -> None:
    moved = 0
    for seed in range(20):
        task = make_task("cross.stage-request", seed)
        change = next(c for c in task.solution if c.name == "crm_change_opportunity_stage")
        if change.arguments["stage"] in CLOSED_STAGES:  # closing sets the close date itself
            continue
        opp = change.arguments["opportunity"]
        extra = ToolCall("crm_update_opportunity", {"opportunity": opp, "close_date": "2030-01-01"})
        grade, errors = replay(world, task, [*task.solution, extra], None)
        assert not errors
        assert not grade.passed and any("close_date" in d for d in grade.collateral)
        moved += 1
    assert moved >= 5


def test_handing_an_escalated_case_to_someone_else_is_collateral(world: World) -> None:
    """Half the instances act as the CRM admin, who may hand cases to anyone."""
    handed = 0
    for seed in range(12):
        task = make_task("cross.escalate-and-tell-manager", seed)
        calls = [
            ToolCall(c.name, {**c.arguments, "new_owner": other_support_rep(world, task)})
            if c.name == "crm_escalate_case"
            else c
            for c in task.solution
        ]
        grade, errors = replay(world, task, calls, None)
        if errors:  # a rep may not reassign: the escalation failed and changed nothing
            assert not grade.passed
            continue
        handed += 1
        assert not grade.passed and any("owner_id" in d for d in grade.collateral)
    assert handed >= 3
