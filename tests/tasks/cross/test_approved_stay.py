"""cross.book-approved-stay through the approval flow: the reference's booking is held for
the manager, the simulated manager approves it by the policy and the task passes; the
same booking left pending (no manager answering) does not pass, since the task needs a
confirmed stay."""

from __future__ import annotations

from sqlalchemy import select

from officegym.apps.booking.models import Reservation
from officegym.runner import ToolRunner
from officegym.tasks import Task, grade, make_task
from officegym.tasks.expected import run_calls
from officegym.world import World

TEMPLATE = "cross.book-approved-stay"


def graded(world: World, task: Task):
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, None)


def booked(world: World) -> Reservation:
    with world.session() as s:
        stmt = select(Reservation).order_by(Reservation.id.desc())
        return s.scalars(stmt).first()


def test_the_reference_is_approved_by_the_simulated_manager_and_passes(world: World) -> None:
    task = make_task(TEMPLATE, 0)
    assert run_calls(world, task, task.solution) == []
    r = booked(world)
    assert (r.status, r.over_policy, r.approver_id is not None) == ("confirmed", True, True)
    g = graded(world, task)
    assert g.passed and g.reward == 1.0


def test_a_booking_left_pending_does_not_pass(world: World) -> None:
    task = make_task(TEMPLATE, 0)
    world.reset()
    runner = ToolRunner(world, task.persona)  # nobody plays the manager
    try:
        for c in task.solution:
            assert runner.call(c.name, c.arguments).ok
    finally:
        runner.close()
    r = booked(world)
    assert (r.status, r.approver_id) == ("pending", None)
    g = graded(world, task)
    assert not g.passed and g.reward < 1.0
    assert any(c.name == "approved stay confirmed" and not c.passed for c in g.checks)
