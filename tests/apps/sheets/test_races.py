"""Writes to one workbook raced from many sessions at once, each on its own thread and
connection, on a SQLite file and on PostgreSQL: one cell row per address, formulas that
see every input, sheet names unique in their workbook, and every acknowledged append on
a row of its own and readable."""

from __future__ import annotations

import uuid

from sqlalchemy import func, select

from officegym.apps.sheets.models import Cell, Sheet
from officegym.runner import ToolRunner
from officegym.world import World
from tests.officegym.concurrency import at_once
from tests.officegym.test_races import world  # noqa: F401  (the SQLite file / PostgreSQL worlds)

ME = "kturner"


def new_workbook(w: World) -> tuple[int, int]:
    """A fresh workbook of ME's with one sheet "Data": (workbook id, sheet id)."""
    runner = ToolRunner(w, ME)
    made = runner.call("sheets_create_workbook", {"name": f"Race {uuid.uuid4().hex[:6]}",
                                                   "sheets": ["Data"]})  # fmt: skip
    runner.close()
    assert made.ok, made
    wid = made.result["workbook"]["id"]
    with w.session() as s:
        return wid, s.scalars(select(Sheet.id).where(Sheet.workbook_id == wid)).one()


def cells_at(w: World, sid: int) -> dict[tuple[int, int], list[Cell]]:
    with w.session() as s:
        out: dict[tuple[int, int], list[Cell]] = {}
        for c in s.scalars(select(Cell).where(Cell.sheet_id == sid)):
            out.setdefault((c.row, c.col), []).append(c)
        return out


def test_many_writes_to_one_cell_leave_one_row(world: World) -> None:  # noqa: F811
    wid, sid = new_workbook(world)
    calls = [(ME, "sheets_write_range", {"workbook": wid, "range": "A1", "values": [[i]]})
             for i in range(10)]  # fmt: skip
    outcomes = at_once(world, calls)
    assert all(o.ok for o in outcomes), outcomes
    found = cells_at(world, sid)
    assert len(found[(1, 1)]) == 1
    assert found[(1, 1)][0].num in range(10)


def test_a_sum_sees_every_input_written_at_once(world: World) -> None:  # noqa: F811
    wid, sid = new_workbook(world)
    runner = ToolRunner(world, ME)
    made = runner.call("sheets_write_range", {"workbook": wid, "range": "B1",
                                              "values": [["=SUM(A1:A8)"]]})  # fmt: skip
    runner.close()
    assert made.ok, made
    calls = [(ME, "sheets_write_range", {"workbook": wid, "range": f"A{i}", "values": [[i]]})
             for i in range(1, 9)]  # fmt: skip
    assert all(o.ok for o in at_once(world, calls))
    found = cells_at(world, sid)
    assert all(len(rows) == 1 for rows in found.values())
    assert [found[(r, 1)][0].num for r in range(1, 9)] == list(range(1, 9))
    assert found[(1, 2)][0].num == 36


def test_one_sheet_name_created_at_once_is_taken(world: World) -> None:  # noqa: F811
    wid, _ = new_workbook(world)
    outcomes = at_once(world, [(ME, "sheets_create_sheet", {"workbook": wid, "name": "Q3"})] * 5)
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"conflict"}, outcomes
    with world.session() as s:
        named = select(func.count()).where(Sheet.workbook_id == wid, Sheet.name == "Q3")
        assert s.scalar(named) == 1


def test_appends_at_once_each_get_a_row_of_their_own(world: World) -> None:  # noqa: F811
    wid, sid = new_workbook(world)
    calls = [(ME, "sheets_append_rows", {"workbook": wid, "values": [[f"row {i}", i]]})
             for i in range(10)]  # fmt: skip
    outcomes = at_once(world, calls)
    assert all(o.ok for o in outcomes), outcomes
    found = cells_at(world, sid)
    assert all(len(rows) == 1 for rows in found.values())
    assert sorted(k[0] for k in found if k[1] == 1) == list(range(1, 11))
    assert sorted(found[(r, 2)][0].num for r in range(1, 11)) == list(range(10))
    assert all(found[(r, 1)][0].text == f"row {int(found[(r, 2)][0].num)}" for r in range(1, 11))
