"""booking.decide-approvals: the persona is a manager with seeded over-policy stays
awaiting them; the reference decides each by the travel policy and passes, with a note
to the traveller too; a wrong decision or a request left undecided fails; the simulated
managers decide nothing seeded, neither the persona's queue nor anyone else's."""

from __future__ import annotations

from sqlalchemy import select

from officegym.apps.booking.models import Reservation
from officegym.tasks import Task, grade, make_task
from officegym.tasks.expected import run_calls
from officegym.tools import ToolCall
from officegym.world import World

TEMPLATE = "booking.decide-approvals"


def graded(world: World, task: Task):
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, None)


def statuses(world: World) -> dict[str, str]:
    with world.session() as s:
        return {r.code: r.status for r in s.scalars(select(Reservation))}


def decisions(task: Task) -> list[ToolCall]:
    return [c for c in task.solution if c.name == "booking_decide_approval"]


def test_the_reference_decides_the_queue_by_the_policy_and_passes(world: World) -> None:
    task = make_task(TEMPLATE, 0)
    before = statuses(world)
    decided = {c.arguments["code"]: c.arguments["decision"] for c in decisions(task)}
    assert len(decided) >= 2 and set(decided.values()) == {"approve", "decline"}
    assert run_calls(world, task, task.solution) == []
    after = statuses(world)
    for code, decision in decided.items():
        assert after[code] == ("confirmed" if decision == "approve" else "declined")
    left = {c for c, status in before.items() if status == "pending"} - set(decided)
    assert left and all(after[c] == "pending" for c in left)  # other managers' queues wait
    g = graded(world, task)
    assert g.passed and g.reward == 1.0


def test_a_note_to_the_traveller_still_passes(world: World) -> None:
    task = make_task(TEMPLATE, 1)
    calls = [
        ToolCall(c.name, {**c.arguments, "note": "Per the travel policy."})
        if c.name == "booking_decide_approval"
        else c
        for c in task.solution
    ]
    assert run_calls(world, task, calls) == []
    assert graded(world, task).reward == 1.0


def test_a_wrong_decision_or_a_request_left_waiting_fails(world: World) -> None:
    task = make_task(TEMPLATE, 2)
    first, *rest = decisions(task)
    flip = {"approve": "decline", "decline": "approve"}[first.arguments["decision"]]
    wrong = [ToolCall(first.name, {**first.arguments, "decision": flip}), *rest]
    assert run_calls(world, task, wrong) == []
    g = graded(world, task)
    assert not g.passed and g.reward < 1.0
    world.reset()
    assert run_calls(world, task, rest) == []
    assert statuses(world)[first.arguments["code"]] == "pending"
    g = graded(world, task)
    assert not g.passed and g.reward < 1.0


def test_every_instance_approves_one_stay_and_declines_another() -> None:
    # deciding every request the same way (a constant policy) fails on every instance
    for seed in range(20):
        chosen = {c.arguments["decision"] for c in decisions(make_task(TEMPLATE, seed))}
        assert chosen == {"approve", "decline"}, seed
