"""Moving cells in bulk: inserting and deleting rows or columns, sorting a range and
removing duplicate rows. Formulas everywhere in the workbook follow the cells they
name (`moves`), and so do named ranges and pivot tables; then the workbook is
recalculated and the moved rows saved."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import pivots, store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.cells import settle
from officegym.apps.sheets.columns import Values
from officegym.apps.sheets.compiler import compile_formula
from officegym.apps.sheets.engine import Book, CellState
from officegym.apps.sheets.history import record
from officegym.apps.sheets.models import Merge, NamedRange, Pivot, Sheet, Workbook
from officegym.apps.sheets.moves import shift_area, shift_text, translate
from officegym.apps.sheets.places import locate, sheet_named
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, col_index, col_letters, parse_area
from officegym.apps.sheets.values import Value, compare
from officegym.errors import Invalid
from officegym.writes import delete_row, update_row

__all__ = ["change_dimension", "remove_duplicates", "sort_range"]

MAX_LINES = 10_000


def _check(axis: str, at: int, count: int) -> None:
    if axis not in ("row", "col"):
        raise Invalid("dimension is rows or columns")
    top = MAX_ROWS if axis == "row" else MAX_COLS
    if not 1 <= at <= top:
        raise Invalid(f"{'row' if axis == 'row' else 'column'} {at} is off the sheet")
    if not 1 <= count <= MAX_LINES:
        raise Invalid(f"insert or delete 1 to {MAX_LINES} at a time")


def _reposition(b: Book, sid: int, axis: str, at: int, count: int) -> list[int]:
    """Move (or drop) the cells of one sheet for inserted/deleted lines; returns the
    stored cells that moved (to `store.park` before saving)."""
    sheet = b.sheets[sid]
    moved: dict[tuple[int, int], CellState] = {}
    shifted: list[int] = []
    for (r, c), st in sheet.cells.items():
        line = r if axis == "row" else c
        span = shift_area(line, line, at, count)
        if span is None:
            if st.id is not None:
                b.removed.append(st.id)
            continue
        key = (span[0], c) if axis == "row" else (r, span[0])
        moved[key] = st
        if key != (r, c):
            b.dirty[(sid, *key)] = None
            if st.id is not None:
                shifted.append(st.id)
    sheet.cells = moved
    for r, c in list(moved):
        b.own(sid, r, c)  # the cells move: this book's own copies from now on
    sheet.values = Values({k: st.value for k, st in moved.items() if st.value is not None})
    sheet.max_row = max((k[0] for k in moved), default=0)
    sheet.max_col = max((k[1] for k in moved), default=0)
    return shifted


def _rewrite_all(b: Book, sheet_name: str, axis: str, at: int, count: int) -> None:
    names = {sid: sh.name for sid, sh in b.sheets.items()}
    for sid, sh in b.sheets.items():
        for (r, c), st in list(sh.cells.items()):
            if st.formula is None or st.input is None:
                continue
            st = b.own(sid, r, c)  # type: ignore[assignment]
            text = shift_text(st.input[1:], names[sid], sheet_name, axis, at, count)
            if text != st.input[1:]:
                st.input = "=" + text
                b.dirty[(sid, r, c)] = None
            st.formula = compile_formula(st.input[1:], r, c)


def _shift_objects(s: Session, wb: Workbook, sheet: Sheet, axis: str, at: int, count: int) -> None:
    """Named ranges, merged ranges and pivot tables on the sheet follow the lines."""
    for named in s.scalars(select(NamedRange).where(NamedRange.sheet_id == sheet.id)):
        lo, hi = (named.r1, named.r2) if axis == "row" else (named.c1, named.c2)
        span = shift_area(lo, hi, at, count) or (at, at)
        update_row(
            s,
            named,
            **({"r1": span[0], "r2": span[1]} if axis == "row" else {"c1": span[0], "c2": span[1]}),
        )
    _shift_merges(s, sheet, axis, at, count)
    for pivot in s.scalars(select(Pivot).where(Pivot.workbook_id == wb.id)):
        changes = {}
        if pivot.source_sheet_id == sheet.id:
            changes["source"] = _shift_ref(pivot.source, axis, at, count)
        if pivot.target_sheet_id == sheet.id:
            changes["anchor"] = _shift_ref(pivot.anchor, axis, at, count)
            changes["extent"] = _shift_ref(pivot.extent, axis, at, count) if pivot.extent else ""
        if changes:
            update_row(s, pivot, **changes)


def _shift_merges(s: Session, sheet: Sheet, axis: str, at: int, count: int) -> None:
    """Merged ranges follow the lines; one whose lines were all deleted goes."""
    ends = ("r1", "r2") if axis == "row" else ("c1", "c2")
    for merge in s.scalars(select(Merge).where(Merge.sheet_id == sheet.id).order_by(Merge.id)):
        lo, hi = getattr(merge, ends[0]), getattr(merge, ends[1])
        span = shift_area(lo, hi, at, count)
        if span is None:
            delete_row(s, merge)
        elif span != (lo, hi):
            update_row(s, merge, **dict(zip(ends, span, strict=True)))


def _shift_ref(ref: str, axis: str, at: int, count: int) -> str:
    area = parse_area(ref)
    lo, hi = (area.r1, area.r2) if axis == "row" else (area.c1, area.c2)
    if (lo, hi) == (1, MAX_ROWS if axis == "row" else MAX_COLS):
        return ref  # whole columns (rows) stay whole
    a, z = shift_area(lo, hi, at, count) or (at, at)
    z = min(z, MAX_ROWS if axis == "row" else MAX_COLS)
    moved = Area(a, area.c1, z, area.c2) if axis == "row" else Area(area.r1, a, area.r2, z)
    return moved.a1()


def _change_lines(
    s: Session,
    actor: Person,
    wb: Workbook,
    sheet: Sheet,
    axis: str,
    at: int,
    count: int,
    action: str,
) -> None:
    b = store.book(s, wb.id)
    store.park(s, _reposition(b, sheet.id, axis, at, count))
    _rewrite_all(b, sheet.name, axis, at, count)
    _shift_objects(s, wb, sheet, axis, at, count)
    store.save(s, b)
    store.forget(s, wb.id)
    b = store.book(s, wb.id)
    b.recalc_all()
    pivots.refresh_all(s, wb, b)
    store.save(s, b)
    n = abs(count)
    what = f"{at}:{at + n - 1}" if axis == "row" else f"{col_letters(at)}:{col_letters(at + n - 1)}"
    record(s, actor, wb, action, f"{sheet.name}!{what}", sheet_id=sheet.id)


def _line(axis: str, start: int | str) -> int:
    if isinstance(start, int):
        return start
    text = start.strip().upper()
    if axis == "col" and text.isalpha():
        return col_index(text)
    if text.isdecimal():
        return int(text)
    raise Invalid(f"{start!r} is not a {'row number' if axis == 'row' else 'column letter'}")


def change_dimension(
    s: Session,
    actor: Person,
    wb: Workbook,
    op: Literal["insert", "delete"],
    *,
    sheet: str | None,
    axis: str,
    start: int | str,
    count: int = 1,
) -> None:
    """Insert `count` empty rows (or columns) before `start`, or delete `count` from `start`;
    formulas that named deleted cells show #REF!."""
    require_edit(s, actor, wb)
    at = _line(axis, start)
    _check(axis, at, count)
    step = count if op == "insert" else -count
    _change_lines(s, actor, wb, sheet_named(s, wb, sheet), axis, at, step, f"{op}_{axis}s")


def _order(a: Value, b: Value) -> int:
    """Ascending order with blanks last, numbers before text."""
    if a is None or a == "" or b is None or b == "":
        return (a is None or a == "") - (b is None or b == "")
    return compare(a, b)


def _rows_of(b: Book, sid: int, area: Area) -> list[dict[int, CellState]]:
    cells = b.sheets[sid].cells
    return [
        {c: cells[(r, c)] for c in range(area.c1, area.c2 + 1) if (r, c) in cells}
        for r in range(area.r1, area.r2 + 1)
    ]


def _cells_of(rows: list[dict[int, CellState]], area: Area) -> list[tuple[int, int]]:
    """The places of the cells `_rows_of` read (what a sort or de-duplication moves)."""
    return [(area.r1 + i, c) for i, row in enumerate(rows) for c in row]


def _place(
    s: Session,
    b: Book,
    sid: int,
    area: Area,
    rows: list[dict[int, CellState]],
    sources: list[int],
) -> list[tuple[int, int, int]]:
    """Put rows (taken from rows `sources`) back into the area from its top (the stored
    cells that move are parked first, see `store.park`)."""
    store.park(s, [st.id for i, (row, src) in enumerate(zip(rows, sources, strict=True))
                   if area.r1 + i != src for st in row.values() if st.id is not None])  # fmt: skip
    sheet = b.sheets[sid]
    for r in range(area.r1, area.r2 + 1):
        for c in range(area.c1, area.c2 + 1):
            sheet.cells.pop((r, c), None)
            sheet.values.pop((r, c), None)
    keys = []
    for i, (row, src) in enumerate(zip(rows, sources, strict=True)):
        r = area.r1 + i
        for c, st in row.items():
            sheet.cells[(r, c)] = st
            if st.formula is not None and st.input and r != src:
                st = b.own(sid, r, c)  # type: ignore[assignment]
                st.input = "=" + translate(st.input[1:], r - src, 0)
                st.formula = compile_formula(st.input[1:], r, c)
            if st.value is not None:
                sheet.values[(r, c)] = st.value
            keys.append((sid, r, c))
            b.dirty[(sid, r, c)] = None
    b.refit(sid)
    return keys


def _data_area(
    s: Session, wb: Workbook, b: Book, ref: str, sheet: str | None, header: bool
) -> tuple[Sheet, Area]:
    target, area = locate(s, wb, ref, sheet)
    data = b.sheets[target.id]
    r2, c2 = min(area.r2, data.max_row), min(area.c2, max(data.max_col, area.c1))
    area = Area(area.r1 + (1 if header else 0), area.c1, r2, c2, target.name)
    if area.rows < 1:
        raise Invalid("the range holds no rows to work on")
    if area.size > 200_000:
        raise Invalid("work on at most 200,000 cells at a time")
    return target, area


def _sort_columns(area: Area, keys: Sequence[tuple[str, bool]]) -> list[tuple[int, bool]]:
    if not keys:
        raise Invalid("give at least one column to sort by")
    cols = []
    for letter, desc in keys:
        c = _line("col", letter)
        if not area.c1 <= c <= area.c2:
            raise Invalid(f"column {letter} is outside {area.a1()}")
        cols.append((c, desc))
    return cols


def _row_order(rows: list[dict[int, CellState]], cols: list[tuple[int, bool]]) -> list[int]:
    """Indexes of `rows` in sorted order (stable; blanks last either way)."""

    def cmp(i: int, j: int) -> int:
        for c, desc in cols:
            a, z = rows[i].get(c), rows[j].get(c)
            k = _order(a.value if a else None, z.value if z else None)
            if k:
                blank = (a is None or a.value in (None, "")) or (z is None or z.value in (None, ""))
                return k if (not desc or blank) else -k
        return 0

    return sorted(range(len(rows)), key=functools.cmp_to_key(cmp))


def sort_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    keys: Sequence[tuple[str, bool]],
    *,
    sheet: str | None = None,
    header: bool = False,
) -> Area:
    """Sort the rows of a range by columns (letters, in order of importance; True for
    descending); `header` keeps the first row in place. Blanks sort last."""
    require_edit(s, actor, wb)
    b = store.book(s, wb.id)
    target, area = _data_area(s, wb, b, ref, sheet, header)
    cols = _sort_columns(area, keys)
    rows = _rows_of(b, target.id, area)
    pivots.guard_outputs(s, wb, target.id, _cells_of(rows, area))
    order = _row_order(rows, cols)
    changed = _place(s, b, target.id, area, [rows[i] for i in order], [area.r1 + i for i in order])
    b.relink_all()
    settle(s, wb, b, changed)
    by = [f"{col_letters(c)} {'desc' if d else 'asc'}" for c, d in cols]
    record(s, actor, wb, "sort", area.label(), {"by": by}, sheet_id=target.id)
    return area


def _distinct(
    b: Book, rows: list[dict[int, CellState]], cols: list[int], first: int
) -> tuple[list, list[int]]:
    """The rows that repeat no earlier one (in `cols`), with their row numbers; the
    cells of the others are marked for deletion."""
    seen: set[tuple] = set()
    kept, sources = [], []
    for i, row in enumerate(rows):
        key = tuple(_norm(row[c].value) if c in row else None for c in cols)
        if key in seen:
            b.removed.extend(st.id for st in row.values() if st.id is not None)
            continue
        seen.add(key)
        kept.append(row)
        sources.append(first + i)
    return kept, sources


def remove_duplicates(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    *,
    columns: Sequence[str] = (),
    sheet: str | None = None,
    header: bool = False,
) -> int:
    """Delete rows of a range that repeat an earlier row (in the given columns, or all),
    closing the gaps; returns how many rows were removed."""
    require_edit(s, actor, wb)
    b = store.book(s, wb.id)
    target, area = _data_area(s, wb, b, ref, sheet, header)
    cols = [_line("col", c) for c in columns] or list(range(area.c1, area.c2 + 1))
    rows = _rows_of(b, target.id, area)
    pivots.guard_outputs(s, wb, target.id, _cells_of(rows, area))
    kept, sources = _distinct(b, rows, cols, area.r1)
    removed = len(rows) - len(kept)
    if removed:
        changed = _place(s, b, target.id, area, kept, sources)
        emptied = range(area.r1 + len(kept), area.r2 + 1)
        b.relink_all()
        settle(
            s,
            wb,
            b,
            changed + [(target.id, r, c) for r in emptied for c in range(area.c1, area.c2 + 1)],
        )
    record(
        s, actor, wb, "remove_duplicates", area.label(), {"removed": removed}, sheet_id=target.id
    )
    return removed


def _norm(v: Value) -> Value:
    return v.strip().lower() if isinstance(v, str) else v
