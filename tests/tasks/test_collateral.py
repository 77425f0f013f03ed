"""A task may touch a record without licensing every change to it: fields the goal did
not ask for are collateral damage, and fail the task."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import CLOSED_STAGES
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership, Message
from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.crm.common import crm_index
from officegym.tasks.slack.common import next_id
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


@pytest.mark.parametrize("seed", range(8))
def test_a_dm_task_allows_no_membership_outside_the_dm(world: World, seed: int) -> None:
    task = make_task("slack.dm-by-name", seed)
    with Session(world.initial_engine) as w:
        me = w.scalars(select(Person).where(Person.handle == task.persona)).one()
        mine = set(w.scalars(select(Membership.channel_id).where(Membership.person_id == me.id)))
        elsewhere = w.scalars(
            select(Channel.name)
            .where(Channel.kind == "public", Channel.is_archived.is_(False))
            .where(Channel.id.not_in(mine))
            .order_by(Channel.id)
        ).first()
    join = ToolCall("slack_join_channel", {"channel": elsewhere})
    grade, errors = replay(world, task, [*task.solution, join], None)
    assert not errors
    assert not grade.passed and any("slack_membership" in d for d in grade.collateral)


@pytest.mark.parametrize("seed", range(4))
def test_onboarding_passes_whatever_order_the_agent_works_in(world: World, seed: int) -> None:
    """Sending the manager's DM first gives the new channel another id: the grader
    finds the channel the episode created instead of predicting its id."""
    task = make_task("slack.onboard-new-hire", seed)
    dm, pin = task.solution[-1], task.solution[6]
    assert (dm.name, pin.name) == ("slack_send_dm", "slack_pin_message")
    reordered = [dm, *task.solution[:6]]
    with Session(world.initial_engine) as w:
        welcome_id = next_id(w, Message) + 1  # the DM now takes the first new message id
    pin_it = ToolCall("slack_pin_message", {"message_id": welcome_id})
    grade, errors = replay(world, task, [*reordered, pin_it], None)
    assert not errors
    assert (grade.reward, grade.passed, grade.collateral) == (1.0, True, ())


@pytest.mark.parametrize("seed", range(4))
def test_posting_a_request_for_a_private_channel_elsewhere_is_collateral(
    world: World, seed: int
) -> None:
    """The update belongs in a channel the persona cannot reach: #general will not do."""
    task = make_task("slack.no-access-request", seed)
    update = task.goal.split('"')[1]
    elsewhere = ToolCall("slack_post_message", {"channel": "general", "text": update})
    grade, errors = replay(world, task, [*task.solution, elsewhere], None)
    assert not errors
    assert not grade.passed and any("slack_message" in d for d in grade.collateral)
    private = task.goal.split("#")[1].split(".")[0].split()[0]
    tried = ToolCall("slack_post_message", {"channel": private, "text": update})
    grade, errors = replay(world, task, [tried], None)
    assert errors and "that you can see" in errors[0]  # the channel is invisible to them
    assert grade.collateral == () and not grade.passed
