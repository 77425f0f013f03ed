"""A task may touch a record without licensing every change to it: fields the goal did
not ask for are collateral damage, and fail the task."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import CLOSED_STAGES, Account, Opportunity
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership, Message
from officegym.seed_data.crm_text import RESOLUTIONS
from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.common import next_id
from officegym.tasks.crm.common import crm_index
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World


def other_support_rep(world: World, task: Task) -> str:
    """A support rep who is neither the persona nor the case's owner (whom the reference
    solution looks up in the directory)."""
    owner = next(c.arguments["person"] for c in task.solution if c.name == "slack_get_person")
    with Session(world.initial_engine) as w:
        reps = crm_index(w).with_role("rep", "customer-support")
    return next(p.handle for p in reps if p.handle not in (task.persona, owner))


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


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
    finds the channel the episode created instead of predicting its id (every state
    item passes), and only the DM fails: it said the channel was ready before it was."""
    task = make_task("slack.onboard-new-hire", seed)
    dm, pin = task.solution[-1], task.solution[6]
    assert (dm.name, pin.name) == ("slack_send_dm", "slack_pin_message")
    reordered = [dm, *task.solution[:6]]
    with Session(world.initial_engine) as w:
        welcome_id = next_id(w, Message) + 1  # the DM now takes the first new message id
    pin_it = ToolCall("slack_pin_message", {"message_id": welcome_id})
    grade, errors = replay(world, task, [*reordered, pin_it], None)
    assert not errors
    assert grade.collateral == ()
    failed = [c for c in grade.checks if not c.passed]
    assert any(c.name.startswith("DM to") for c in failed)
    assert all("sent before the work it claims" in c.detail for c in failed)
    assert not any(c.name.startswith("state: call 3") for c in failed)  # the channel


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


# ---------------------------------------------------------------- CRM: honest detours pass


@pytest.mark.parametrize("seed", range(4))
def test_converting_then_fixing_the_new_deals_amount_passes(world: World, seed: int) -> None:
    """Edits to a record the task creates leave history rows: they are part of the job."""
    task = make_task("crm.convert-lead", seed)
    convert = next(c for c in task.solution if c.name == "crm_convert_lead")
    with Session(world.initial_engine) as w:
        deal = next_id(w, Opportunity)
    calls = [
        ToolCall("crm_convert_lead", {**convert.arguments, "amount": 1_000}),
        ToolCall(
            "crm_update_opportunity", {"opportunity": deal, "amount": convert.arguments["amount"]}
        ),
    ]
    grade, errors = replay(world, task, calls, None)
    assert not errors
    assert (grade.passed, grade.collateral) == (True, ())


@pytest.mark.parametrize("seed", range(4))
def test_correcting_a_wrong_amount_on_the_way_passes(world: World, seed: int) -> None:
    task = make_task("crm.update-deal", seed)
    update = task.solution[-1]
    wrong = ToolCall(update.name, {"opportunity": update.arguments["opportunity"], "amount": 1_000})
    step = update.arguments["next_step"] + "."
    final = ToolCall(update.name, {**update.arguments, "next_step": step})
    grade, errors = replay(world, task, [wrong, final], None)
    assert not errors and grade.passed


# ---------------------------------------------------------------- CRM: shortcuts fail


@pytest.mark.parametrize("template_id", ["crm.convert-lead", "crm.convert-lead-existing-account"])
def test_a_closed_deal_made_beside_the_conversion_is_not_the_conversion(
    world: World, template_id: str
) -> None:
    for seed in range(4):
        task = make_task(template_id, seed)
        convert = next(c for c in task.solution if c.name == "crm_convert_lead")
        with Session(world.initial_engine) as w:
            account = next_id(w, Account) if "account" not in convert.arguments else None
        lost = {
            "name": "Side deal",
            "account": convert.arguments.get("account", account),
            "close_date": "2026-01-01",
            "amount": convert.arguments["amount"],
            "stage": "Closed Lost",
            "loss_reason": "Price",
        }
        calls = [
            ToolCall("crm_convert_lead", {**convert.arguments, "create_opportunity": False}),
            ToolCall("crm_create_opportunity", lost),
        ]
        grade, errors = replay(world, task, calls, None)
        assert not errors, errors
        assert not grade.passed, (template_id, seed, grade.checks)


@pytest.mark.parametrize("seed", range(4))
def test_a_resolution_naming_every_resolution_fails(world: World, seed: int) -> None:
    task = make_task("crm.close-case", seed)
    close = task.solution[-1]
    every = " ".join(RESOLUTIONS)
    grade, _ = replay(
        world, task, [ToolCall(close.name, {**close.arguments, "resolution": every})], None
    )
    assert not grade.passed
