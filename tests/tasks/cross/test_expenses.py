"""cross.trip-expense-row: the stay's line must carry what the booking site charged, and
the report's Total must stay a live sum; a near amount or a typed total fails."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import Reservation
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.tasks import make_task
from officegym.tasks.validate import play, replay
from officegym.world import World

ID = "cross.trip-expense-row"


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _with_line(task, **cells):
    """The reference calls with the stay's line (and the Total cell) written differently."""
    calls = list(task.solution)
    line = list(calls[3].arguments["values"][0])
    for i, v in cells.get("line", {}).items():
        line[i] = v
    calls[3] = dataclasses.replace(calls[3], arguments={**calls[3].arguments, "values": [line]})
    if "total" in cells:
        calls[4] = dataclasses.replace(
            calls[4], arguments={**calls[4].arguments, "values": [[cells["total"]]]}
        )
    return calls


@pytest.mark.parametrize("seed", range(4))
def test_the_reference_passes_and_the_amount_is_the_reservations_total(
    world: World, seed: int
) -> None:
    task = make_task(ID, seed)
    grade, errors = play(world, task)
    assert not errors and grade.passed and grade.reward == 1.0
    code = task.solution[0].arguments["code"]
    with Session(world.initial_engine) as s:
        stay = s.scalars(select(Reservation).where(Reservation.code == code)).one()
    assert task.solution[3].arguments["values"][0][3] == stay.total // 100


def test_the_nights_alone_instead_of_the_total_charged_fail(world: World) -> None:
    task = make_task(ID, 1)
    code = task.solution[0].arguments["code"]
    with Session(world.initial_engine) as s:
        stay = s.scalars(select(Reservation).where(Reservation.code == code)).one()
    assert stay.accommodation != stay.total
    grade, errors = replay(world, task, _with_line(task, line={3: stay.accommodation // 100}), None)
    assert not errors and not grade.passed


def test_a_typed_total_that_matches_today_fails(world: World) -> None:
    task = make_task(ID, 2)
    reference, _ = play(world, task)
    assert reference.passed
    with Session(world.engine) as s:
        wb_name = task.solution[4].arguments["workbook"]
        me = s.scalars(select(Person).where(Person.handle == task.persona)).one()
        wb = sheets.find_workbook(s, me, wb_name)
        shown = sheets.read_range(s, me, wb, task.solution[4].arguments["range"]).rows[0][0]
    grade, errors = replay(world, task, _with_line(task, total=shown), None)
    assert not errors and not grade.passed
    assert any("total" in c.name and not c.passed for c in grade.checks)
