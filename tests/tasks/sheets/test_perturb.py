"""A right answer typed in is not a formula: for every template whose goal asks for a
formula, a fix or a pivot table, the reference solution with each formula it wrote
replaced by the value it showed (and each pivot table by a pasted copy of its cells)
scores below 1 — the grader's perturbed copies catch it — while the reference passes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Pivot, Sheet, Workbook
from officegym.apps.sheets.refs import Area
from officegym.changes import diff
from officegym.runner import ToolRunner
from officegym.tasks import grade, make_task
from officegym.tasks.validate import play
from officegym.world import World, world_image

LIVE = ["sheets.formula-column", "sheets.lookup-join", "sheets.summary-sheet", "sheets.named-range",
        "sheets.fix-ref-error", "sheets.fix-short-range", "sheets.fix-stale-total",
        "sheets.pivot-summary", "sheets.append-expense", "cross.pipeline-to-sheet",
        "cross.fix-report-request", "cross.trip-expense-row"]  # fmt: skip


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World(world_image("default", 0))
    yield w
    w.close()


def pasted(world: World, task) -> float:
    """Play the reference, then replace its formulas and pivot tables by their values."""
    world.reset()
    runner = ToolRunner(world, task.persona)
    for c in task.solution:
        assert runner.call(c.name, c.arguments).ok
    s, me = runner.session, runner.actor
    with world.initial_connection() as before, world.engine.connect() as after:
        changed = [c.after for c in diff(before, after) if c.table == "sheets_cell" and c.after]
    formulas = [r for r in changed if (r["input"] or "").startswith("=")]
    for p in s.scalars(select(Pivot)).all():
        wb = s.get_one(Workbook, p.workbook_id)
        sheet = s.get_one(Sheet, p.target_sheet_id)
        block = sheets.read_range(s, me, wb, f"'{sheet.name}'!{p.extent}").rows
        sheets.delete_pivot(s, me, wb, p)
        sheets.write_range(s, me, wb, f"'{sheet.name}'!{p.anchor}", block)
    for r in formulas:
        sheet = s.get_one(Sheet, r["sheet_id"])
        wb = s.get_one(Workbook, sheet.workbook_id)
        area = Area(r["row"], r["col"], r["row"], r["col"], sheet.name)
        value = sheets.read_range(s, me, wb, area.label()).rows[0][0]
        sheets.write_range(s, me, wb, area.label(), [[value]])
    s.commit()
    runner.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, task.answer).reward


@pytest.mark.parametrize("template_id", LIVE)
def test_typed_in_values_fail_where_formulas_pass(world: World, template_id: str) -> None:
    for seed in (0, 1):
        task = make_task(template_id, seed)
        assert play(world, task)[0].passed
        assert pasted(world, task) < 1.0, (template_id, seed)


def test_a_graders_copy_equals_the_final_workbook(world: World) -> None:
    """The grader's copy (the initial book plus the episode's changed cells) holds what a
    full load of the final state holds, after writes, sorts and inserted rows."""
    from officegym.tasks.checks import GradeContext
    from officegym.tasks.sheets.perturb import _load, load_final

    world.reset()
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Orders 2025")).one()
        me_id = wb.owner_id
    runner = ToolRunner(world, _handle(world, me_id))
    for name, args in [
        (
            "sheets_write_range",
            {"workbook": wb.id, "range": "K2", "values": [["=I2*2"], ["=SUM(I:I)"]]},
        ),
        (
            "sheets_sort_range",
            {"workbook": wb.id, "range": "A1:I201", "by": [{"column": "G"}], "header": True},
        ),
        ("sheets_clear_range", {"workbook": wb.id, "range": "C5:D9"}),
        ("sheets_create_sheet", {"workbook": wb.id, "name": "Notes"}),
        ("sheets_define_name", {"workbook": wb.id, "name": "Rev", "range": "Orders!I2:I201"}),
        ("sheets_write_range", {"workbook": wb.id, "range": "Notes!A1", "values": [["=SUM(Rev)"]]}),
        (
            "sheets_write_range",
            {"workbook": wb.id, "range": "A402", "values": [["SO-X", "2025-01-01"]]},
        ),
    ]:
        assert runner.call(name, args).ok
    runner.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        g = GradeContext(
            initial=before, final=after, changes=tuple(diff(before, after)), answer=None
        )
        copy, full = load_final(g, wb.id), _load(after, wb.id)
    assert copy.names == full.names and set(copy.sheets) == set(full.sheets)
    for sid, sheet in full.sheets.items():
        got = {k: (c.input, c.value, c.fmt) for k, c in copy.sheets[sid].cells.items()}
        assert got == {k: (c.input, c.value, c.fmt) for k, c in sheet.cells.items()}


def _handle(world: World, person_id: int) -> str:
    from officegym.apps.org.models import Person

    with world.session() as s:
        return s.get_one(Person, person_id).handle
