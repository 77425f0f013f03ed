"""Final-state grading: every row the reference changes must end as the reference leaves
it, without the template naming the field; freedoms let legit variants through; stray
changes cost by their size."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.expected import expected
from officegym.tasks.grading import price
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

TRIP = "cross.book-requested-trip"


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _booked_code(task: Task) -> str:
    rows = [c.after for c in expected(task).changes if c.table == "booking_reservation"]
    assert len(rows) == 1 and rows[0] is not None
    return rows[0]["code"]


def _with(task: Task, tool: str, **changed: object) -> list[ToolCall]:
    return [
        ToolCall(c.name, {**c.arguments, **changed}) if c.name == tool else c for c in task.solution
    ]


def test_expected_records_each_write_call_and_the_rows_it_changed() -> None:
    task = make_task(TRIP, 0)
    exp = expected(task)
    assert [s.tool for s in exp.steps] == ["booking_book_stay", "slack_reply_in_thread"]
    tables = {t for s in exp.steps for t, _ in s.rows}
    assert {"booking_reservation", "slack_message"} <= tables
    assert expected(task) is exp  # replayed once per instance


@pytest.mark.parametrize("seed", [0, 1])
def test_the_reference_scores_one_with_a_state_item_per_write_call(world: World, seed: int) -> None:
    task = make_task(TRIP, seed)
    graded, errors = replay(world, task, task.solution, task.answer)
    assert not errors and graded.passed and graded.reward == 1.0
    names = [c.name for c in graded.checks if c.name.startswith("state:")]
    assert names == ["state: call 2 booking_book_stay", "state: call 3 slack_reply_in_thread"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_booking_then_cancelling_the_requested_trip_fails(world: World, seed: int) -> None:
    task = make_task(TRIP, seed)
    cancel = ToolCall("booking_cancel_stay", {"code": _booked_code(task)})
    graded, errors = replay(world, task, [*task.solution, cancel], task.answer)
    assert not errors
    assert not graded.passed
    state = next(c for c in graded.checks if c.name.endswith("booking_book_stay"))
    assert not state.passed and "status" in state.detail and "'cancelled'" in state.detail


def test_two_guests_instead_of_the_traveller_alone_fails(world: World) -> None:
    task = make_task(TRIP, 0)  # its place sleeps two
    graded, errors = replay(world, task, _with(task, "booking_book_stay", guests=2), task.answer)
    assert not errors
    assert not graded.passed
    failed = {c.name: c for c in graded.checks if not c.passed}
    wrong = failed.pop("state: call 2 booking_book_stay")
    assert "guests=2" in wrong.detail and "guests=1" in wrong.detail
    # The rest failed only as claims of that work: the confirmation and its message.
    assert failed and all("the work it claims is not done" in c.detail for c in failed.values())


@pytest.mark.parametrize("seed", range(2))
def test_a_row_the_colleague_also_changes_stays_graded_but_for_its_fields(
    world: World, seed: int
) -> None:
    """The manager approves the booking the agent makes: only the fields the approval
    changes are the colleague's (free for that row); one guest more still fails."""
    task = make_task("cross.book-approved-stay", seed)
    exp = expected(task)
    booked = [c for c in exp.changes if c.table == "booking_reservation"]
    assert len(booked) == 1  # the booking stays among the rows the agent must leave
    theirs = {k: v for k, v in exp.freedoms.reasons().items() if "colleague" in v}
    assert theirs == {
        "booking_reservation.approver_id,status": "changed by the simulated colleague"
    }
    graded, errors = replay(world, task, task.solution, task.answer)
    assert not errors and graded.passed
    more = _with(task, "booking_book_stay", guests=2)
    graded, errors = replay(world, task, more, task.answer)
    assert not errors and not graded.passed
    wrong = next(c for c in graded.checks if c.name.endswith("booking_book_stay"))
    assert not wrong.passed and "guests=2" in wrong.detail


def test_a_paraphrased_confirmation_still_passes(world: World) -> None:
    task = make_task(TRIP, 0)
    reply = next(c for c in task.solution if c.name == "slack_reply_in_thread")
    found = re.match(r"Booked (.+) for you, (.+)\.$", reply.arguments["text"])
    assert found is not None
    text = f"All set: your stay at {found[1]} is booked, {found[2]}. Have a good trip!"
    graded, errors = replay(world, task, _with(task, "slack_reply_in_thread", text=text), None)
    assert not errors
    assert graded.passed and graded.reward == 1.0


def test_a_task_without_write_calls_has_no_state_items() -> None:
    task = make_task("slack.count-members", 0)
    assert expected(task).steps == ()


def test_collateral_is_priced_by_size(world: World) -> None:
    task = make_task("sheets.append-expense", 0)
    made = ToolCall("sheets_create_workbook", {"name": "scratch"})

    def stray(cells: int) -> float:
        values = [[str(i) for i in range(cells)]]
        end = chr(ord("A") + cells - 1)
        write = ToolCall(
            "sheets_write_range", {"workbook": "scratch", "range": f"A1:{end}1", "values": values}
        )
        graded, errors = replay(world, task, [*task.solution, made, write], task.answer)
        assert not errors and not graded.passed
        assert sum("sheets_cell" in d for d in graded.collateral) == cells
        return graded.reward

    one, eight = stray(1), stray(8)
    assert eight < one < 1.0
    assert price(1) == 0.5 and price(8) == pytest.approx(1 / 9)


def test_a_changed_solution_is_not_served_from_the_cache() -> None:
    task = make_task(TRIP, 0)
    reference = expected(task)
    shorter = dataclasses.replace(task, solution=task.solution[:-1])
    assert len(expected(shorter).steps) == len(reference.steps) - 1


def test_another_formula_computing_the_same_column_passes(world: World) -> None:
    """The column is judged as a computation (`Follows` frees its cells' inputs), so the
    factors in the other order are as good as the reference's formula."""
    task = make_task("sheets.formula-column", 0)
    first = task.solution[0]
    header, formula = first.arguments["values"]
    swapped = "=" + "*".join(reversed(formula[0][1:].split("*")))
    assert swapped != formula[0]
    calls = [ToolCall(first.name, {**first.arguments, "values": [header, [swapped]]})]
    graded, errors = replay(world, task, [*calls, *task.solution[1:]], task.answer)
    assert not errors and graded.passed and graded.reward == 1.0


def test_reading_more_after_joining_a_channel_is_not_a_difference(world: World) -> None:
    """A membership's read marker is ephemeral: reading the channel after joining it
    leaves the joined row as the reference's."""
    task = make_task("slack.join-and-post", 0)
    join = next(c for c in task.solution if c.name == "slack_join_channel")
    read = ToolCall("slack_read_channel", {"channel": join.arguments["channel"]})
    graded, errors = replay(world, task, [*task.solution, read], task.answer)
    assert not errors and graded.passed and graded.reward == 1.0


def test_validate_reports_the_policies_beside_the_mutants() -> None:
    from click.testing import CliRunner

    from officegym import cli

    result = CliRunner().invoke(
        cli.main, ["validate", "--seeds", "1", "--json", "slack.react-message"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["templates"]["slack.react-message"]
    assert report["policies"]["undo"] == {"run": 1, "killed": 1, "survived": 0}
    assert report["no_inverse"] == [] and report["prior"]["seeds"] == 0
