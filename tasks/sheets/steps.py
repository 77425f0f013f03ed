"""Step builders of the spreadsheet templates: the acts they repeat (write a result that
must compute, fill a formula down a column, add a sheet or a workbook, build a pivot
table, sort a table), each with its calls, the checks of what it leaves and the cells
it may change. `on_book` adds what every write to a workbook leaves besides its cells
(the change history, the modification time, values recalculated elsewhere), once per
workbook however many steps write there. Builders take values the template computed
and draw nothing from its rng."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import select

from officegym.apps.sheets.models import Pivot
from officegym.apps.sheets.refs import col_letters, parse_area, quote_sheet
from officegym.apps.sheets.values import Value, compare
from officegym.tasks.checks import Allow, Check, GradeContext, NewRowId, Predicate, Same
from officegym.tasks.common import call
from officegym.tasks.mutants import Equivalent
from officegym.tasks.sheets.common import (
    Book,
    allow_book,
    allow_cells,
    allow_new_sheet,
    allow_new_workbook,
    allow_values,
)
from officegym.tasks.sheets.perturb import Edit, Follows, Reader, final_book
from officegym.tasks.steps import Step, flatten
from officegym.tools import ToolCall

__all__ = [
    "allow_each",
    "computed_step",
    "fill_step",
    "final_rows",
    "fix_step",
    "insert_line_step",
    "new_sheet_step",
    "new_workbook_step",
    "on_book",
    "pivot_step",
    "read_call",
    "sort_step",
    "write_call",
]

Expect = Callable[[Reader], list[list[Value]]]


def write_call(book: Book | str, at: str, values: list[list[Any]]) -> ToolCall:
    """The reference's write of `values` from the cell `at` (sheet!A1) of a workbook."""
    name = book if isinstance(book, str) else book.name
    return call("sheets_write_range", workbook=name, range=at, values=values)


def read_call(book: Book | str, at: str, **options: object) -> ToolCall:
    """The reference's read of a range (options such as ``mode="formulas"``)."""
    name = book if isinstance(book, str) else book.name
    return call("sheets_read_range", workbook=name, range=at, **options)


def on_book(book: Book, *steps: Step, recalc: bool = False) -> Step:
    """Steps that write to one workbook, as one step with what every write there leaves:
    history rows and the modification time, and with `recalc` the values recalculated
    anywhere in the workbook (a write other cells read)."""
    around = Step(allowed=[*allow_book(book), *(allow_values(book) if recalc else ())])
    return flatten((*steps, around))


def allow_each(book: Book, sheet: str, cells: Sequence[tuple[int, int]]) -> list[Allow]:
    """One update of each of these cells (row, column) of a sheet: the cells a repair
    rewrites, and nothing around them."""
    sid = book.sheets[sheet]
    return [
        Allow(
            "sheets_cell", kinds=("update",), where={"sheet_id": sid, "row": r, "col": c}, limit=1
        )
        for r, c in cells
    ]


def insert_line_step(book: Book, sheet: str, row: int, area: str) -> Step:
    """Insert one row before row `row` of the workbook's first sheet (what was there moves
    down): the call, and the cells of `area` of `sheet` allowed to change."""
    insert = call("sheets_insert_dimension", workbook=book.name, dimension="rows", start=row,
                  count=1)  # fmt: skip
    return Step(calls=[insert], allowed=allow_cells(book.sheets[sheet], area))


def computed_step(
    book: Book,
    sheet: str,
    ref: str,
    expect: Expect,
    *,
    name: str,
    calls: Sequence[ToolCall],
    allowed: Sequence[Allow] = (),
    rounds: Sequence[Sequence[Edit]] = (),
    weight: float = 1.0,
) -> Step:
    """Write a result that must compute: the cells `ref` of `sheet` equal `expect` in the
    final state and on copies whose sources changed (`Follows`), so a typed-in number or
    a range that stops short fails."""
    check = Follows(
        name=name,
        workbook_id=book.id,
        target=(sheet, ref),
        expect=expect,
        rounds=rounds,
        weight=weight,
    )
    return Step(calls=calls, checks=[check], allowed=allowed)


def fix_step(
    book: Book,
    sheet: str,
    cell: str,
    formulas: list[str],
    expect: Expect,
    *,
    name: str,
    rounds: Sequence[Sequence[Edit]] = (),
    target: str | None = None,
    reads: Sequence[ToolCall] = (),
) -> Step:
    """Repair cells: after `reads` (the broken formulas, say), write `formulas` along a
    row from `cell` (each cell rewritten once, nothing around them) and check `target`
    (the cells written, unless given) computes `expect` (`computed_step`)."""
    at = parse_area(cell)
    cells = [(at.r1, at.c1 + i) for i in range(len(formulas))]
    if target is None:
        target = cell if len(formulas) == 1 else f"{cell}:{col_letters(cells[-1][1])}{at.r1}"
    return computed_step(
        book,
        sheet,
        target,
        expect,
        name=name,
        rounds=rounds,
        calls=[*reads, write_call(book, f"{sheet}!{cell}", [formulas])],
        allowed=allow_each(book, sheet, cells),
    )


def fill_step(
    book: Book,
    sheet: str,
    top: str,
    values: list[list[Any]],
    fill: str,
    expect: Expect,
    *,
    name: str,
    rounds: Sequence[Sequence[Edit]] = (),
    reads: Sequence[ToolCall] = (),
) -> Step:
    """Write `values` (a header and the first row's formulas, say) from the cell `top` and
    fill the range `fill` down from its first row: the whole block, from `top` to the
    end of `fill`, must compute (`computed_step`) and is the only place written."""
    end = parse_area(fill)
    target = f"{top}:{col_letters(end.c2)}{end.r2}"
    calls = [
        *reads,
        write_call(book, f"{sheet}!{top}", values),
        call("sheets_fill_range", workbook=book.name, range=f"{sheet}!{fill}", direction="down"),
    ]
    allowed = allow_cells(book.sheets[sheet], target, ("insert", "update"))
    return computed_step(
        book, sheet, target, expect, name=name, calls=calls, allowed=allowed, rounds=rounds
    )


def new_sheet_step(book: Book, sheet: str, area: str) -> Step:
    """Add a sheet named `sheet`, whose cells of `area` (A1) the task may fill."""
    _, allowed = allow_new_sheet(book, sheet, area)
    create = call("sheets_create_sheet", workbook=book.name, name=sheet)
    return Step(calls=[create], allowed=allowed)


def new_workbook_step(owner_id: int, name: str, tab: str, area: str) -> tuple[NewRowId, Step]:
    """Create a workbook named `name` with one sheet `tab`, whose cells of `area` the task
    may fill: the workbook the episode makes (for checks that read it) and the step."""
    made, allowed = allow_new_workbook(owner_id, name, area)
    step = Step(calls=[call("sheets_create_workbook", name=name, sheets=[tab])], allowed=allowed)
    return made, step


def pivot_step(
    book: Book,
    sheet: str,
    group: str,
    summary: tuple[str, str],
    keep: tuple[str, str] | None,
    expect: Expect,
    *,
    rounds: Sequence[Sequence[Edit]],
    height: int,
) -> Step:
    """Build a pivot table of the orders (the Orders sheet's columns A:I) at A1 of `sheet`
    that groups by `group`, shows `summary` (field, function) and keeps only the orders
    whose field is a value (`keep`): a pivot table object as asked, and output cells
    down to `height` rows that follow the orders (`expect`)."""
    field, kind = summary
    checks: list[Check] = [
        Predicate(
            name="a pivot table object as asked",
            fn=_is_pivot(book, sheet, group, field, kind, keep),
        ),
        Follows(
            name="the table follows the orders",
            workbook_id=book.id,
            target=(sheet, f"A1:B{height}"),
            expect=expect,
            rounds=rounds,
        ),
    ]
    create = call(
        "sheets_create_pivot",
        workbook=book.name,
        source="Orders!A:I",
        anchor=f"{quote_sheet(sheet)}!A1",
        rows=[group],
        values=[{"field": field, "summary": kind}],
        **({"filters": {keep[0]: [keep[1]]}} if keep else {}),
    )
    allowed = [Allow("sheets_pivot", where={"workbook_id": book.id}, limit=1)]
    return Step(calls=[create], checks=checks, allowed=allowed)


def _is_pivot(
    book: Book, sheet: str, group: str, field: str, kind: str, keep: tuple[str, str] | None
):
    """A pivot table object at A1 of the new sheet, reading the orders, grouped and
    summarised as asked."""

    def check(g: GradeContext) -> tuple[bool, str]:
        rows = g.final.execute(select(Pivot.__table__).where(Pivot.workbook_id == book.id)).all()
        tabs = g.rows("sheets_sheet", {"workbook_id": book.id})
        at = {t["id"] for t in tabs if Same(sheet).matches(t["name"])}
        want_filters = {keep[0]: [keep[1]]} if keep else {}
        for p in rows:
            values = [(v["field"].lower(), v["summary"]) for v in p.values]
            filters = {k.lower(): [str(x).lower() for x in v] for k, v in p.filters.items()}
            if (
                p.target_sheet_id in at
                and p.anchor == "A1"
                and p.source_sheet_id == book.sheets["Orders"]
                and [x.lower() for x in p.rows] == [group.lower()]
                and not p.columns
                and values == [(field.lower(), kind)]
                and filters == {k.lower(): [x.lower() for x in v] for k, v in want_filters.items()}
            ):
                return True, f"pivot table {p.id} groups {group} and shows {kind} of {field}"
        asked = f"{kind} of {field} by {group} at {sheet}!A1"
        return False, f"no pivot table of {asked} ({len(rows)} pivot tables)"

    return check


def final_rows(book: Book, sheet: str, ref: str):
    """The computed values of a range of the workbook in the final state."""

    def read(g: GradeContext) -> list[list[Any]]:
        return Reader(final_book(g, book.id)).grid(sheet, ref)

    return read


def sort_step(
    book: Book, sheet: str, original: list[list[Any]], letter: str, desc: bool, *, name: str
) -> Step:
    """Sort the table `original` (header first, from A1) of `sheet` by its column `letter`:
    the same rows, in that order, under the header; only its body's cells change."""
    width, last, key = len(original[0]), len(original), ord(letter) - 65
    table = f"A1:{col_letters(width)}{last}"
    return Step(
        calls=[
            call(
                "sheets_sort_range",
                workbook=book.name,
                range=f"{sheet}!{table}",
                by=[{"column": letter, "descending": desc}],
                header=True,
            )
        ],
        checks=[
            Predicate(name=name, fn=_sorted_as_asked(book, sheet, width, last, key, desc, original))
        ],
        allowed=allow_cells(book.sheets[sheet], f"A2:{col_letters(width)}{last}", ("update",)),
        equivalent=_header_stays(desc, original[0][key], [r[key] for r in original[1:]]),
    )


def _sorted_as_asked(
    book: Book, sheet: str, width: int, last: int, key: int, desc: bool, original: list[list[Any]]
):
    def check(g: GradeContext) -> tuple[bool, str]:
        rows = final_rows(book, sheet, f"A1:{col_letters(width)}{last}")(g)
        if rows[0] != original[0]:
            return False, "the header row moved"
        body, want = rows[1:], original[1:]
        same = sorted(map(repr, body)) == sorted(map(repr, want))
        keys = [r[key] for r in body]
        steps = [compare(a, b) for a, b in itertools.pairwise(keys)]
        ordered = all(c >= 0 for c in steps) if desc else all(c <= 0 for c in steps)
        return (
            same and ordered,
            f"rows kept: {same}, ordered by column {col_letters(key + 1)}: {ordered}",
        )

    return check


def _header_stays(desc: bool, header: Any, keys: list[Any]) -> list[Equivalent]:
    """When the header would sort first anyway (text after numbers, sorted largest first;
    a header alphabetically before or after every value), forgetting to keep it changes
    nothing: that mutant is equivalent."""
    first = all((compare(header, k) >= 0) if desc else (compare(header, k) <= 0) for k in keys)
    if not first:
        return []
    why = "the header sorts before every value in this order, so it stays on top either way"
    return [Equivalent("bool.flip", why, tool="sheets_sort_range", arg="header")]
