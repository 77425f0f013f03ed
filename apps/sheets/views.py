"""What the sheets pages show, computed from the service's reads: the bounded window of
a sheet (its cells as shown, with their inputs), the selection, paging and filters.

The grid never holds more than `MAX_ROWS` x `MAX_COLS` cells, however large the sheet:
the name box and the paging links move the window, so a browser agent's page (and its
accessibility tree) stays small.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.functions.criteria import matcher
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, a1, col_index, col_letters
from officegym.apps.sheets.values import XlError, general
from officegym.errors import Invalid

__all__ = ["COLS", "ROWS", "CellView", "Grid", "grid", "parse_selection"]

ROWS, COLS = 25, 10  # the window's size


@dataclass(frozen=True)
class CellView:
    address: str  # A1
    shown: str  # as the cell displays its value
    input: str  # as typed (formulas with '=')
    kind: str  # number, text, bool, error, blank: for alignment


@dataclass
class Grid:
    """The window of one sheet a page shows."""

    sheet: Sheet
    top: int
    left: int
    rows: list[tuple[int, list[CellView]]]
    columns: list[str]
    selection: Area
    used: tuple[int, int]
    filter: tuple[str, str] | None = None
    matched: int | None = None
    summary: dict[str, str] | None = None  # of a selection of several cells: sum, average, count
    notes: list[str] = field(default_factory=list)

    @property
    def selected(self) -> CellView | None:
        want = a1(self.selection.r1, self.selection.c1)
        for _, cells in self.rows:
            for cell in cells:
                if cell.address == want:
                    return cell
        return None


def parse_selection(text: str | None, default: Area) -> Area:
    """A name-box entry (``B5``, ``B2:D9``) as an area; `Invalid` if it is none."""
    if not text:
        return default
    from officegym.apps.sheets.refs import parse_area

    area = parse_area(text.strip())
    return Area(area.r1, area.c1, min(area.r2, MAX_ROWS), min(area.c2, MAX_COLS), area.sheet)


def _view(state: Any, r: int, c: int) -> CellView:
    if state is None:
        return CellView(a1(r, c), "", "", "blank")
    v = state.value
    kind = "error" if isinstance(v, XlError) else type(v).__name__
    return CellView(a1(r, c), format_value(v, state.fmt), state.input or "", kind)


def _matching_rows(data: Any, col: int, condition: str, start: int) -> list[int]:
    test = matcher(condition)
    return [r for r in range(start, data.max_row + 1) if test(data.values.get((r, col)))]


def grid(s: Session, actor: Person, wb: Workbook, args: Mapping[str, str]) -> Grid:
    """The window of the sheet `args` name (``sheet``, ``at``: top-left, ``sel``: the
    selection, ``filter_col`` + ``filter``: show only matching rows below row 1)."""
    sheet = sheets.sheet_named(s, wb, args.get("sheet"))
    data = sheets.book(s, wb.id).sheets[sheet.id]
    sel = parse_selection(args.get("sel"), Area(1, 1, 1, 1))
    top_left = parse_selection(args.get("at"), Area(sel.r1, sel.c1, sel.r1, sel.c1))
    top, left = top_left.r1, top_left.c1
    if not (top <= sel.r1 < top + ROWS and left <= sel.c1 < left + COLS):
        top, left = sel.r1, sel.c1
    columns = list(range(left, min(left + COLS, MAX_COLS + 1)))
    shown_rows = list(range(top, min(top + ROWS, MAX_ROWS + 1)))
    g_filter, matched, hits = None, None, []
    if args.get("filter_col"):
        col = col_index(args["filter_col"].strip().upper()) if args["filter_col"].isalpha() else 0
        if not 1 <= col <= MAX_COLS:
            raise Invalid(f"filter column {args['filter_col']!r} is not a column letter")
        hits = _matching_rows(data, col, args.get("filter", ""), max(2, top))
        g_filter, matched = (col_letters(col), args.get("filter", "")), len(hits)
        shown_rows = ([1] if top <= 1 else []) + hits[: ROWS - 1]
    rows = [(r, [_view(data.cells.get((r, c)), r, c) for c in columns]) for r in shown_rows]
    letters = [col_letters(c) for c in columns]
    used = (data.max_row, data.max_col)
    counted = hits if g_filter else range(sel.r1, min(sel.r2, data.max_row) + 1)
    summary = (
        _summary(data, sel, [r for r in counted if sel.r1 <= r <= sel.r2]) if sel.size > 1 else None
    )
    return Grid(sheet, top, left, rows, letters, sel, used, g_filter, matched, summary)


def _summary(data: Any, sel: Area, rows: list[int]) -> dict[str, str]:
    """What a spreadsheet's status bar shows for a selection: the sum, average and count
    of its numbers (in a filter view, of the rows shown only)."""
    cols = range(sel.c1, min(sel.c2, data.max_col) + 1)
    nums = [v for r in rows for c in cols if type(v := data.values.get((r, c))) is float]
    if not nums:
        return {"sum": "0", "average": "", "count": "0"}
    total = sum(nums)
    return {"sum": _shown(total), "average": _shown(total / len(nums)), "count": str(len(nums))}


def _shown(x: float) -> str:
    return general(round(x, 2))


def window_link(g: Grid, rows: int = 0, cols: int = 0) -> dict[str, str]:
    """The URL parameters of the window moved by whole pages."""
    top = max(1, min(MAX_ROWS, g.top + rows * ROWS))
    left = max(1, min(MAX_COLS, g.left + cols * COLS))
    return {"sheet": g.sheet.name, "at": a1(top, left), "sel": a1(top, left)}
