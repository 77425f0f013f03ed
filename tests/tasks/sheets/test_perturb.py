"""A right answer typed in is not a formula: for every template whose goal asks for a
formula, a fix or a pivot table, the reference passes, while its cheap variants score
below 1 — each formula replaced by the value it showed (each pivot by a pasted copy),
one filled row typed over, a cell plus a constant (`=C2+663000`), every range one row
short, the named range wrapped in `N()`, a pivot typed in beside a pivot object, a
pivot's cells typed over — the grader's rounds, which change every source row, catch
them.
"""

from __future__ import annotations

import functools
import re

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import store
from officegym.apps.sheets.models import Pivot, Sheet, Workbook
from officegym.apps.sheets.refs import Area, parse_area
from officegym.changes import diff
from officegym.runner import ToolRunner
from officegym.tasks import grade, make_task
from officegym.tasks.validate import play, replay
from officegym.tools import ToolCall
from officegym.world import World

LIVE = ["sheets.formula-column", "sheets.lookup-join", "sheets.summary-sheet", "sheets.named-range",
        "sheets.fix-ref-error", "sheets.fix-short-range", "sheets.fix-stale-total",
        "sheets.pivot-summary", "sheets.append-expense", "cross.pipeline-to-sheet",
        "cross.fix-report-request", "cross.trip-expense-row"]  # fmt: skip


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


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


# ---------------------------------------------------------------- cheap variants fail
# Each variant keeps the reference's work and today's numbers but breaks the computation
# in one cheap way; the grader's rounds, which change every source row, catch it.

FORMULAS = [t for t in LIVE if t != "sheets.pivot-summary"]
SHORTENED = [t for t in FORMULAS if t != "cross.pipeline-to-sheet"]  # its total's range is
# the agent's own rows: one row short of them is a wrong total today, failed by round 0
END_ROW = re.compile(r"(:\$?[A-Z]{1,3}\$?)(\d+)")
FULL_RANGE = re.compile(r"(\$?[A-Z]{1,3}\$?)(\d+):(\$?[A-Z]{1,3}\$?)(\d+)")
RANGED = [t for t in FORMULAS if t not in ("sheets.formula-column", "sheets.lookup-join",
          "sheets.named-range")]  # fmt: skip  # their formulas read one row, or look up
FIRST_CELL = re.compile(r"((?:'[^']+'|[A-Za-z][A-Za-z0-9_]*)!)?\$?([A-Z]{1,3})\$?(\d+)")


def _formulas_written(world: World) -> list[dict]:
    with world.initial_connection() as before, world.engine.connect() as after:
        changed = [c.after for c in diff(before, after) if c.table == "sheets_cell" and c.after]
    return sorted(
        (r for r in changed if (r["input"] or "").startswith("=")),
        key=lambda r: (r["sheet_id"], r["col"], r["row"]),
    )


def _retype(world: World, task, rewrite) -> float:
    """Play the reference, then type `rewrite(formula row, shown value, read, probe)`
    (None: leave it) into cells whose formulas it wrote; the grade of that. `read(ref)`
    is a cell's value, `probe(text)` what the cell shows with `text` typed in."""
    world.reset()
    runner = ToolRunner(world, task.persona)
    for c in task.solution:
        assert runner.call(c.name, c.arguments).ok
    s, me = runner.session, runner.actor
    for r in _formulas_written(world):
        sheet = s.get_one(Sheet, r["sheet_id"])
        wb = s.get_one(Workbook, sheet.workbook_id)
        label = Area(r["row"], r["col"], r["row"], r["col"], sheet.name).label()
        read = functools.partial(_value, s, me, wb, sheet.name)
        probe = functools.partial(_probe, s, me, wb, label)
        text = rewrite(r, read(label), read, probe)
        if text is not None:
            sheets.write_range(s, me, wb, label, [[text]])
    s.commit()
    runner.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, task.answer).reward


def _value(s, me, wb: Workbook, sheet: str, ref: str):
    return sheets.read_range(s, me, wb, ref, sheet=sheet).rows[0][0]


def _probe(s, me, wb: Workbook, label: str, text: str):
    sheets.write_range(s, me, wb, label, [[text]])
    return sheets.read_range(s, me, wb, label).rows[0][0]


def _middle_typed_over(world: World, task) -> float:
    """One formula (the middle one the reference wrote) replaced by the value it shows."""
    world.reset()
    runner = ToolRunner(world, task.persona)
    for c in task.solution:
        assert runner.call(c.name, c.arguments).ok
    runner.close()
    written = _formulas_written(world)
    middle = written[len(written) // 2]
    return _retype(world, task, lambda r, v, *_: v if r == middle else None)


def _plus_constant(r: dict, shown, read, _probe) -> str | None:
    """`=C2+663000`: the first cell the formula names, plus what makes today's value."""
    found = FIRST_CELL.search(r["input"])
    if found is None or not isinstance(shown, int | float):
        return None
    ref = f"{found.group(1) or ''}{found.group(2)}{found.group(3)}"
    base = read(ref)
    return f"={ref}+{shown - (base if isinstance(base, int | float) else 0)}"


def _half_range_plus_constant(r: dict, shown, _read, probe) -> str | None:
    """`=SUM(B2:B7)+4100`: a formula over the first half of its range, the rest typed."""
    found = FULL_RANGE.search(r["input"])
    if found is None:
        return None
    first, last = parse_area(found.group(0).replace("$", "")), None
    if first.r2 - first.r1 >= 2:
        last = Area(first.r1, first.c1, (first.r1 + first.r2) // 2, first.c2)
    elif first.c2 - first.c1 >= 2:
        last = Area(first.r1, first.c1, first.r2, (first.c1 + first.c2) // 2)
    if last is None:
        return None
    partial = r["input"][: found.start()] + last.a1() + r["input"][found.end() :]
    return f"{partial}+({shown - probe(partial)})"


def _one_row_short(task) -> list[ToolCall]:
    """The reference with every range in its formulas, names and fills ending a row early."""

    def short(text: str) -> str:
        return END_ROW.sub(lambda m: f"{m.group(1)}{int(m.group(2)) - 1}", text)

    out = []
    for c in task.solution:
        args = dict(c.arguments)
        if c.name == "sheets_write_range":
            args["values"] = [
                [short(v) if isinstance(v, str) and v.startswith("=") else v for v in row]
                for row in args["values"]
            ]
        elif c.name in ("sheets_define_name", "sheets_fill_range"):
            args["range"] = short(args["range"])
        out.append(ToolCall(c.name, args))
    assert out != list(task.solution), task.template_id
    return out


@pytest.mark.parametrize("template_id", FORMULAS)
def test_one_filled_row_typed_over_fails(world: World, template_id: str) -> None:
    for seed in (0, 1):
        task = make_task(template_id, seed)
        assert _middle_typed_over(world, task) < 1.0, (template_id, seed)


@pytest.mark.parametrize("template_id", [t for t in FORMULAS if t != "sheets.named-range"])
def test_a_cell_plus_a_constant_fails(world: World, template_id: str) -> None:
    for seed in (0, 1):
        task = make_task(template_id, seed)
        assert _retype(world, task, _plus_constant) < 1.0, (template_id, seed)


@pytest.mark.parametrize("template_id", RANGED)
def test_a_formula_over_part_of_the_rows_plus_the_rest_typed_fails(
    world: World, template_id: str
) -> None:
    for seed in (0, 1):
        task = make_task(template_id, seed)
        assert _retype(world, task, _half_range_plus_constant) < 1.0, (template_id, seed)


@pytest.mark.parametrize("template_id", SHORTENED)
def test_ranges_one_row_short_fail(world: World, template_id: str) -> None:
    for seed in (0, 1):
        task = make_task(template_id, seed)
        result, errors = replay(world, task, _one_row_short(task), task.answer)
        assert not errors and result.reward < 1.0, (template_id, seed, errors)


def test_a_named_range_spelled_or_multiplied_away_is_not_used(world: World) -> None:
    """`=AVERAGE(D2:D31)+N("Q1_Actual")` computes the right number without the name;
    `=AVERAGE(D2:D31)+0*SUM(Q1_Actual)` names it without reading through it."""
    for seed in range(3):
        task = make_task("sheets.named-range", seed)
        name_call, write = task.solution
        name, where = name_call.arguments["name"], name_call.arguments["range"]
        fn = write.arguments["values"][0][0][1:].split("(")[0]
        for formula in (f'={fn}({where})+N("{name}")', f"={fn}({where})+0*SUM({name})"):
            cheat = ToolCall(write.name, {**write.arguments, "values": [[formula]]})
            result, errors = replay(world, task, [name_call, cheat], task.answer)
            assert not errors and result.reward < 1.0, formula
            assert [c.name for c in result.checks if not c.passed] == [
                f"{write.arguments['range'][3:]} uses {name}"
            ]


def _pivot_sheet(world: World, task, move) -> float:
    """Play the pivot template's reference, change it with `move(session, me, wb, pivot)`."""
    world.reset()
    runner = ToolRunner(world, task.persona)
    for c in task.solution:
        assert runner.call(c.name, c.arguments).ok
    s, me = runner.session, runner.actor
    pivot = s.scalars(select(Pivot)).one()
    move(s, me, s.get_one(Workbook, pivot.workbook_id), pivot)
    s.commit()
    runner.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, task.answer).reward


def _typed_in_with_pivot_elsewhere(s, me, wb, pivot) -> None:
    sheet = s.get_one(Sheet, pivot.target_sheet_id).name
    block = sheets.read_range(s, me, wb, f"'{sheet}'!{pivot.extent}").rows
    spec = {"rows": pivot.rows, "values": pivot.values, "filters": pivot.filters}
    sheets.delete_pivot(s, me, wb, pivot)
    sheets.create_pivot(s, me, wb, "Orders!A:I", f"'{sheet}'!H1", **spec)
    sheets.write_range(s, me, wb, f"'{sheet}'!A1", block)


def _typed_over_behind_the_service(s, me, wb, pivot) -> None:
    """A state the service refuses to make (kept to prove the grader reads it as broken)."""
    b = sheets.book(s, wb.id)
    anchor = parse_area(pivot.anchor)
    b.set_input(pivot.target_sheet_id, anchor.r1 + 1, anchor.c1 + 1, "12345")
    store.save(s, b)


@pytest.mark.parametrize("move", [_typed_in_with_pivot_elsewhere, _typed_over_behind_the_service])
def test_a_pivot_typed_in_or_typed_over_fails(world: World, move) -> None:
    for seed in (0, 1, 2):
        task = make_task("sheets.pivot-summary", seed)
        assert _pivot_sheet(world, task, move) < 1.0, seed


def test_the_grader_and_the_app_agree_when_a_pivots_field_is_gone(world: World) -> None:
    """A round that renames the pivot's field in the source gives the grader's copy the
    `#REF!` table the app writes for the same edit (it used to raise)."""
    from officegym.tasks.checks import GradeContext
    from officegym.tasks.sheets.perturb import _change, _pivots, load_final

    task = make_task("sheets.pivot-summary", 0)
    assert play(world, task)[0].passed
    with world.session() as s:
        pivot = s.scalars(select(Pivot)).one()
        wb = s.get_one(Workbook, pivot.workbook_id)
        me = s.get_one(Person, wb.owner_id)
        field = pivot.rows[0]
        col = next(
            c
            for c in range(1, 10)
            if sheets.read_range(s, me, wb, f"Orders!{Area(1, c, 1, c).a1()}").rows[0][0] == field
        )
        sheet = s.get_one(Sheet, pivot.target_sheet_id).name
        with world.initial_connection() as before, world.engine.connect() as after:
            g = GradeContext(
                initial=before, final=after, changes=tuple(diff(before, after)), answer=None
            )
            copy = load_final(g, wb.id).fork()
            _change(copy, {(pivot.source_sheet_id, 1, col): "'Renamed"}, _pivots(g, wb.id))
        sheets.write_range(s, me, wb, f"Orders!{Area(1, col, 1, col).a1()}", [["Renamed"]])
        shown = sheets.read_range(s, me, wb, f"'{sheet}'!A1").rows[0][0]
    assert shown.startswith("#REF!") and copy.value(pivot.target_sheet_id, 1, 1) == shown


def test_a_grade_does_not_depend_on_how_busy_the_machine_is(world: World) -> None:
    """The site's recalculations get 3 s; the grader's copies a longer budget of their own,
    so a reference graded while recalculations here would time out still passes."""
    from officegym.apps.sheets import budget

    task = make_task("sheets.formula-column", 0)
    play(world, task)  # the reference's state, recalculated in time
    starved = budget.Limits(seconds=0.0)  # every recalculation of the site out of time
    with (
        budget.limits(starved),
        world.initial_connection() as before,
        world.engine.connect() as after,
    ):
        graded = grade(task, before, after, task.answer)
    assert (graded.reward, graded.passed) == (1.0, True), graded.checks
