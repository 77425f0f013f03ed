"""Cell content: reading ranges (values, formulas or as shown), writing 2-D blocks of
values and formulas, appending rows, clearing, number formats, fill and copy.

Every write checks edit access, validates every input first (a malformed formula or
an oversized paste changes nothing), types the cells into the workbook's `Book`,
recalculates only the dependents, refreshes pivot tables fed by the cells, saves the
changed rows and records the change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import budget, pivots, store
from officegym.apps.sheets.access import require_edit, role_of
from officegym.apps.sheets.compiler import compile_formula
from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.formats import PRESETS, format_value
from officegym.apps.sheets.history import MAX_DETAIL, record
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, a1
from officegym.apps.sheets.values import Value, XlError, general
from officegym.errors import Invalid, NotFound

__all__ = [
    "MAX_READ",
    "MAX_WRITE",
    "Block",
    "append_rows",
    "clear_range",
    "find_cells",
    "json_value",
    "read_range",
    "set_number_format",
    "write_cells",
    "write_range",
]

MAX_READ = 10_000  # cells per read: larger ranges come back a page of rows at a time
MAX_WRITE = 20_000  # cells per write
MAX_INPUT = 50_000  # characters in one cell
Cellish = str | int | float | bool | None


@dataclass(frozen=True)
class Block:
    """A rectangle read from a sheet: its label, the rows, and whether more rows follow."""

    sheet: Sheet
    area: Area
    rows: list[list[Any]]
    more_from: int | None = None  # first row not returned (paging)

    @property
    def label(self) -> str:
        return self.area.label()


def json_value(v: Value) -> Any:
    """A value as JSON: whole numbers as ints, errors as their code, blanks as ''."""
    if v is None:
        return ""
    if isinstance(v, XlError):
        return v.code
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


def _visible(s: Session, actor: Person, wb: Workbook) -> None:
    if role_of(s, actor, wb) is None:
        raise NotFound(f"no workbook with id {wb.id} that you can open", code="workbook_not_found")


def read_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    *,
    sheet: str | None = None,
    mode: str = "values",
) -> Block:
    """The cells of a range as `mode` says: ``values`` (computed), ``formulas`` (input as
    typed) or ``formatted`` (as shown). Past the sheet's last used row or column the
    range is cut; past `MAX_READ` cells, only the first rows come back (`more_from`)."""
    _visible(s, actor, wb)
    if mode not in ("values", "formulas", "formatted"):
        raise Invalid("mode is values, formulas or formatted")
    target, area = locate(s, wb, ref, sheet)
    b = store.book(s, wb.id)
    data = b.sheets[target.id]
    r2, c2 = min(area.r2, max(data.max_row, area.r1)), min(area.c2, max(data.max_col, area.c1))
    per_page = max(1, MAX_READ // (c2 - area.c1 + 1))
    if c2 - area.c1 + 1 > MAX_READ:
        raise Invalid(
            f"{area.label()} is {c2 - area.c1 + 1} columns wide; read at most {MAX_READ} cells "
            "at a time"
        )
    last = min(r2, area.r1 + per_page - 1)
    rows = [
        [_shown(data.cells.get((r, c)), mode) for c in range(area.c1, c2 + 1)]
        for r in range(area.r1, last + 1)
    ]
    shown = Area(area.r1, area.c1, last, c2, target.name)
    return Block(target, shown, rows, last + 1 if last < r2 else None)


def _shown(state: Any, mode: str) -> Any:
    if state is None:
        return ""
    if mode == "formulas":
        return state.input if state.input is not None else json_value(state.value)
    if mode == "formatted":
        return format_value(state.value, state.fmt)
    return json_value(state.value)


def _input(v: Cellish, where: str) -> str | None:
    """What typing a JSON value into a cell means."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int | float):
        return general(float(v))
    if not isinstance(v, str):
        raise Invalid(f"{where}: a cell takes text, a number, true/false or null")
    if len(v) > MAX_INPUT:
        raise Invalid(f"{where}: a cell holds at most {MAX_INPUT} characters")
    return v


def _prepare(area: Area, rows: Sequence[Sequence[Cellish]]) -> dict[tuple[int, int], str | None]:
    """Every cell's input, checked (formulas compiled) before anything changes."""
    if not rows or not all(isinstance(r, list | tuple) for r in rows):
        raise Invalid("values must be a list of rows, each a list of cells")
    width = max(len(r) for r in rows)
    if len(rows) * width > MAX_WRITE:
        raise Invalid(f"at most {MAX_WRITE} cells per write (got {len(rows) * width}); split it")
    if area.r1 + len(rows) - 1 > MAX_ROWS or area.c1 + width - 1 > MAX_COLS:
        raise Invalid("the values run off the sheet")
    out: dict[tuple[int, int], str | None] = {}
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            r, c = area.r1 + i, area.c1 + j
            text = _input(v, a1(r, c))
            if text is not None and text.startswith("=") and len(text) > 1:
                try:
                    compile_formula(text[1:], r, c)
                except Invalid as exc:
                    raise Invalid(f"{a1(r, c)}: {exc.message}", code=exc.code) from None
            out[(r, c)] = text
    return out


def apply(
    s: Session,
    actor: Person,
    wb: Workbook,
    sheet: Sheet,
    inputs: dict[tuple[int, int], str | None],
    action: str,
    label: str,
) -> Book:
    """Type prepared inputs into the book, recalculate, refresh pivots, save, record.
    Cells a pivot table writes are refused (`Conflict`) before anything changes."""
    b = store.book(s, wb.id)
    pivots.guard_outputs(s, wb, sheet.id, [k for k, t in inputs.items() if _now(b, sheet, k) != t])
    before = {
        k: (b.cell(sheet.id, *k).input if b.cell(sheet.id, *k) else None)
        for k in list(inputs)[:MAX_DETAIL]
    }
    keys: list[Key] = []
    for (r, c), text in inputs.items():
        b.set_input(sheet.id, r, c, text)
        keys.append((sheet.id, r, c))
    settle(s, wb, b, keys)
    detail = [
        {"cell": a1(*k), "before": before[k], "after": inputs[k]}
        for k in before
        if before[k] != inputs[k]
    ]
    record(s, actor, wb, action, label, detail, sheet_id=sheet.id)
    return b


def _now(b: Book, sheet: Sheet, cell: tuple[int, int]) -> str | None:
    state = b.cell(sheet.id, *cell)
    return state.input if state is not None else None


def settle(s: Session, wb: Workbook, b: Book, keys: list[Key]) -> None:
    """Recalculate from changed cells (refusing a typed formula that blows the evaluation
    budget), refresh the pivots they feed, save."""
    b.recalc(keys)
    budget.refuse(b.over_budget, keys)
    pivots.refresh_fed_by(s, wb, b, keys)
    store.save(s, b)


def write_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    rows: Sequence[Sequence[Cellish]],
    *,
    sheet: str | None = None,
) -> Area:
    """Type a block of values and formulas with its top-left cell at the range's start;
    a range larger than one cell must match the block's size."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    inputs = _prepare(area, rows)
    width = max(len(r) for r in rows)
    if area.size > 1 and (area.rows, area.cols) != (len(rows), width) and area.r2 < MAX_ROWS:
        raise Invalid(
            f"{area.label()} is {area.rows}x{area.cols} but the values are {len(rows)}x{width}; "
            "give the top-left cell or a range of the same size"
        )
    written = Area(area.r1, area.c1, area.r1 + len(rows) - 1, area.c1 + width - 1, target.name)
    apply(s, actor, wb, target, inputs, "write", written.label())
    return written


def write_cells(
    s: Session, actor: Person, wb: Workbook, cells: dict[str, Cellish], *, sheet: str | None = None
) -> int:
    """Type into scattered cells at once (``{"B5": "=SUM(B2:B4)", "C7": 12}``), as a grid
    page saves the cells a person changed; returns how many were written."""
    require_edit(s, actor, wb)
    if not cells:
        return 0
    if len(cells) > MAX_WRITE:
        raise Invalid(f"at most {MAX_WRITE} cells per write")
    target = None
    inputs: dict[tuple[int, int], str | None] = {}
    for ref, value in cells.items():
        found, area = locate(s, wb, ref, sheet)
        if target is not None and found.id != target.id:
            raise Invalid("write cells of one sheet at a time")
        target = found
        inputs.update(_prepare(Area(area.r1, area.c1, area.r1, area.c1), [[value]]))
    label = ", ".join(sorted(cells))[:150]
    apply(s, actor, wb, target, inputs, "write", f"{target.name}!{label}")  # type: ignore[arg-type]
    return len(inputs)


def append_rows(
    s: Session,
    actor: Person,
    wb: Workbook,
    rows: Sequence[Sequence[Cellish]],
    *,
    sheet: str | None = None,
    ref: str | None = None,
) -> Area:
    """Add rows under the last non-empty row of a table (the sheet, or the columns of
    `ref`), starting in its first column."""
    require_edit(s, actor, wb)
    target, area = (
        locate(s, wb, ref or "A:A", sheet) if ref else (locate(s, wb, "A1", sheet)[0], None)
    )
    b = store.book(s, wb.id)
    cells = b.sheets[target.id].cells
    c1 = area.c1 if area else 1
    c2 = area.c2 if area and area.c2 < MAX_COLS else MAX_COLS
    last = max(
        (r for (r, c), st in cells.items() if c1 <= c <= c2 and (st.input or st.value is not None)),
        default=0,
    )
    start = Area(last + 1, c1, last + 1, c1, target.name)
    inputs = _prepare(start, rows)
    width = max(len(r) for r in rows)
    written = Area(last + 1, c1, last + len(rows), c1 + width - 1, target.name)
    apply(s, actor, wb, target, inputs, "append", written.label())
    return written


def _existing(b: Book, sid: int, area: Area) -> list[tuple[int, int]]:
    return sorted(k for k in b.sheets[sid].cells if area.contains(*k))


def clear_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    *,
    sheet: str | None = None,
    formats: bool = False,
) -> int:
    """Empty the cells of a range (their formats too if `formats`); returns how many."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    b = store.book(s, wb.id)
    found = _existing(b, target.id, area)
    inputs = {k: None for k in found if b.cell(target.id, *k).input is not None}  # type: ignore[union-attr]
    apply(s, actor, wb, target, inputs, "clear", area.label())
    if formats:
        for k in found:
            b.set_format(target.id, *k, None)
        store.save(s, b)
    return len(inputs)


def set_number_format(
    s: Session, actor: Person, wb: Workbook, ref: str, fmt: str, *, sheet: str | None = None
) -> Area:
    """Show a range's numbers in a format: a preset name (currency, percent, date ...) or
    a format code such as ``#,##0.00``; ``general`` resets it."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    code = PRESETS.get(fmt.strip().lower(), fmt.strip())
    if not code or len(code) > 60:
        raise Invalid(
            "give a preset (" + ", ".join(PRESETS) + ") or a format code of at most 60 characters"
        )
    b = store.book(s, wb.id)
    data = b.sheets[target.id]
    r2, c2 = min(area.r2, max(data.max_row, area.r1)), min(area.c2, max(data.max_col, area.c1))
    if (r2 - area.r1 + 1) * (c2 - area.c1 + 1) > MAX_WRITE:
        raise Invalid(f"format at most {MAX_WRITE} cells at a time")
    for r in range(area.r1, r2 + 1):
        for c in range(area.c1, c2 + 1):
            b.set_format(target.id, r, c, None if code.lower() == "general" else code)
    store.save(s, b)
    shown = Area(area.r1, area.c1, r2, c2, target.name)
    record(s, actor, wb, "format", shown.label(), {"format": code}, sheet_id=target.id)
    return shown


def find_cells(
    s: Session,
    actor: Person,
    wb: Workbook,
    query: str,
    *,
    sheet: str | None = None,
    exact: bool = False,
    formulas: bool = False,
    limit: int = 50,
) -> list[tuple[Sheet, int, int, Any]]:
    """Cells whose value (or, with `formulas`, input) contains `query` (any case), or
    equals it with `exact`; by sheet, row, column."""
    from officegym.apps.sheets.places import sheet_named, sheets_of

    _visible(s, actor, wb)
    if not query.strip():
        raise Invalid("give text to find")
    b = store.book(s, wb.id)
    sheets = [sheet_named(s, wb, sheet)] if sheet else sheets_of(s, wb)
    needle = query.strip().lower()
    out: list[tuple[Sheet, int, int, Any]] = []
    for sh in sheets:
        for (r, c), st in sorted(b.sheets[sh.id].cells.items()):
            text = (st.input or "") if formulas else format_value(st.value, st.fmt)
            raw = (st.input or "") if formulas else format_value(st.value, None)
            hay = [text.lower(), raw.lower()]
            if (needle in hay) if exact else any(needle in h for h in hay):
                out.append((sh, r, c, json_value(st.value)))
                if len(out) >= limit:
                    return out
    return out
