"""What the sheets pages show, computed from the service's reads: the bounded window of
a sheet (its cells as shown, with their inputs), the selection, paging and filters.

The grid never holds more than `MAX_ROWS` x `MAX_COLS` cells, however large the sheet:
the name box and the paging links move the window, so a browser agent's page (and its
accessibility tree) stays small.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import spill
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.functions.criteria import matcher
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import (
    MAX_COLS,
    MAX_ROWS,
    Area,
    a1,
    col_index,
    col_letters,
    parse_area,
)
from officegym.apps.sheets.values import XlError, general
from officegym.errors import Invalid

__all__ = [
    "COLS",
    "ROWS",
    "CellView",
    "Grid",
    "data_region",
    "grid",
    "kept_rows",
    "parse_selection",
    "posted",
    "selection_end",
    "view_params",
    "window_origin",
]

ROWS, COLS = 25, 10  # the window's size
MAX_KEPT = 500  # rows a filter view keeps shown after they were edited
_CELL = re.compile(r"[A-Za-z]{1,3}[0-9]{1,7}")  # one cell, as an ``end`` names it


@dataclass(frozen=True)
class CellView:
    address: str  # A1
    shown: str  # as the cell displays its value
    input: str  # as typed (formulas with '=')
    kind: str  # number, text, bool, error, blank: for alignment
    number: str = ""  # a number's full value (the status bar sums these), else ""
    locked: bool = False  # computed by a pivot table: shown read-only
    anchor: str = ""  # a spilled cell's anchor (A1), whose formula the bar shows greyed
    spill: str = ""  # that anchor's formula
    note: str = ""  # a blocked anchor's note ("Array result was not expanded ...")


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
    kept: list[int] = field(default_factory=list)  # rows edited under the filter, still shown
    before: int | None = None  # under a filter: the last row it shows above the window
    after: int | None = None  # and the first below it
    up: int = 1  # under a filter: the top of the page above
    up_row: int = 1  # and its first row shown by the filter
    end: tuple[int, int] | None = None  # the selection's moving end (see `selection_end`)

    @property
    def end_a1(self) -> str:
        """The selection's moving end as A1 text, "" when none was named."""
        return a1(*self.end) if self.end else ""

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
    area = parse_area(text.strip())
    return Area(area.r1, area.c1, min(area.r2, MAX_ROWS), min(area.c2, MAX_COLS), area.sheet)


def _view(book: Any, sid: int, r: int, c: int, locked: bool) -> CellView:
    state = book.sheets[sid].cells.get((r, c))
    if state is None:
        return CellView(a1(r, c), "", "", "blank", locked=locked)
    v = state.value
    kind = "error" if isinstance(v, XlError) else type(v).__name__
    number = repr(v) if type(v) is float else ""
    anchor, formula, note = "", "", ""
    if state.input is None and v is not None and (at := book.spills.owner(sid, r, c)):
        anchor, formula = a1(*at), book.cell(sid, *at).input or ""
    if state.spill and state.spill.startswith("!"):
        note = spill.message(book, (sid, r, c)) or ""
    shown = format_value(v, state.fmt)
    return CellView(a1(r, c), shown, state.input or "", kind, number, locked, anchor, formula, note)


def _pivot_areas(s: Session, wb: Workbook, sheet: Sheet) -> list[Area]:
    """The output ranges of the pivot tables written on `sheet` (their cells are computed)."""
    from officegym.apps.sheets.refs import parse_area

    return [
        parse_area(p.extent)
        for p in sheets.pivots_of(s, wb)
        if p.target_sheet_id == sheet.id and p.extent
    ]


def selection_end(text: str | None, sel: Area) -> tuple[int, int] | None:
    """The corner of `sel` an ``end`` parameter names: the end a person moved with
    Shift and the arrows or the mouse, which the window keeps in view as Sheets does
    (the anchor is the opposite corner); None when it names no corner of `sel`."""
    if not text or not _CELL.fullmatch(text.strip()):
        return None
    try:
        corner = parse_area(text.strip())
    except Invalid:  # off the sheet: no corner of any selection
        return None
    r, c = corner.r1, corner.c1
    return (r, c) if r in (sel.r1, sel.r2) and c in (sel.c1, sel.c2) else None


def window_origin(
    sel: Area, at: Area | None, end: tuple[int, int] | None = None
) -> tuple[int, int]:
    """The window's top-left: `at` when the selection's `end` (its top-left corner when
    none is named) is inside that window; otherwise the window scrolls just enough to
    show it (from A1 when no `at` is given), so the view stays where the person is
    instead of jumping to the selection."""
    if at is None:  # a link naming only a selection: from row 1 and column A where it fits
        return (1 if sel.r2 < 1 + ROWS else sel.r1), (1 if sel.c2 < 1 + COLS else sel.c1)
    r, c = end or (sel.r1, sel.c1)
    top, left = at.r1, at.c1
    if not top <= r < top + ROWS:
        top = r if r < top else r - ROWS + 1
    if not left <= c < left + COLS:
        left = c if c < left else c - COLS + 1
    return max(1, top), max(1, left)


def _matching_rows(data: Any, col: int, condition: str, start: int) -> list[int]:
    test = matcher(condition)
    return [r for r in range(start, data.max_row + 1) if test(data.values.get((r, col)))]


@dataclass(frozen=True)
class _Filtered:
    """The rows a filter view shows from `top`, and where its neighbouring pages start."""

    top: int
    rows: list[int]  # row 1 (the header) when on top, then up to ROWS - 1 hits
    hits: list[int]  # every row shown by the filter (matches and kept rows), ascending
    matched: int  # rows the condition matches
    before: int | None  # the last hit above the window (an arrow key's next row up)
    after: int | None  # the first hit below it
    up: int  # the top of the page above (the ROWS - 1 hits before this one, or row 1)
    up_row: int  # its first hit


def _filtered(data: Any, col: int, condition: str, kept: list[int], top: int, r: int) -> _Filtered:
    """A filter view's window: from `top`, scrolled just enough to show row `r` (the
    selection) when it is a hit outside it, as the unfiltered window scrolls."""
    matches = _matching_rows(data, col, condition, 2)
    hits = sorted(set(matches) | {k for k in kept if 2 <= k <= data.max_row})
    if r < top:
        top = r
    below = [h for h in hits if h >= max(2, top)]
    if len(below) >= ROWS and r > below[ROWS - 2]:  # the selection is past the window
        k = bisect.bisect_right(hits, r) - 1
        top = hits[max(0, k - (ROWS - 2))]
        below = [h for h in hits if h >= top]
    shown = below[: ROWS - 1]
    above = [h for h in hits if h < max(2, top)]
    rest = below[ROWS - 1 :]
    return _Filtered(
        top, ([1] if top <= 1 else []) + shown, hits, len(matches),
        above[-1] if above else None, rest[0] if rest else None,
        above[-(ROWS - 1)] if len(above) > ROWS - 1 else 1,
        above[-(ROWS - 1)] if len(above) > ROWS - 1 else (hits or [2])[0],
    )  # fmt: skip


@dataclass
class _Frame:
    """Where a window is: its sheet (and book), selection, rows and columns shown, and
    its filter view (``filter``: column letters and condition) if any."""

    sheet: Sheet
    book: Any
    sel: Area
    top: int
    left: int
    columns: list[int]
    rows: list[int]
    filter: tuple[str, str] | None = None
    view: _Filtered | None = None
    kept: list[int] = field(default_factory=list)
    end: tuple[int, int] | None = None  # the selection's moving end, if named


def _frame(s: Session, wb: Workbook, args: Mapping[str, str]) -> _Frame:
    """The window `args` name (``sheet``, ``at``: top-left, ``sel``: the selection,
    ``filter_col`` + ``filter``: show only matching rows below row 1, and ``keep``: rows
    edited under that filter, still shown)."""
    sheet = sheets.sheet_named(s, wb, args.get("sheet"))
    book = sheets.book(s, wb.id)
    data = book.sheets[sheet.id]
    sel = parse_selection(args.get("sel"), Area(1, 1, 1, 1))
    at = parse_selection(args.get("at"), sel) if args.get("at") else None
    end = selection_end(args.get("end"), sel)
    top, left = window_origin(sel, at, end)
    columns = list(range(left, min(left + COLS, MAX_COLS + 1)))
    f = _Frame(
        sheet, book, sel, top, left, columns, list(range(top, min(top + ROWS, MAX_ROWS + 1)))
    )
    f.end = end
    if args.get("filter_col"):
        col = col_index(args["filter_col"].strip().upper()) if args["filter_col"].isalpha() else 0
        if not 1 <= col <= MAX_COLS:
            raise Invalid(f"filter column {args['filter_col']!r} is not a column letter")
        f.kept = kept_rows(args.get("keep", ""))
        start, shown = (at.r1 if at else 1), (end[0] if end else sel.r1)
        f.view = _filtered(data, col, args.get("filter", ""), f.kept, start, shown)
        f.filter = (col_letters(col), args.get("filter", ""))
        f.top, f.rows = f.view.top, f.view.rows
    return f


def grid(s: Session, actor: Person, wb: Workbook, args: Mapping[str, str]) -> Grid:
    """The window of the sheet `args` name (see `_frame`), its cells as shown."""
    f = _frame(s, wb, args)
    sid, data, sel, view = f.sheet.id, f.book.sheets[f.sheet.id], f.sel, f.view
    locked = _pivot_areas(s, wb, f.sheet)
    rows = [
        (r, [_view(f.book, sid, r, c, _inside(locked, r, c)) for c in f.columns]) for r in f.rows
    ]
    letters = [col_letters(c) for c in f.columns]
    counted = view.hits if view else range(sel.r1, min(sel.r2, data.max_row) + 1)
    summary = (
        _summary(data, sel, [r for r in counted if sel.r1 <= r <= sel.r2]) if sel.size > 1 else None
    )
    used = (data.max_row, data.max_col)
    window = Grid(f.sheet, f.top, f.left, rows, letters, sel, used, summary=summary, end=f.end)
    if view:
        window.filter = f.filter
        window.matched, window.kept = view.matched, f.kept
        window.before, window.after = view.before, view.after
        window.up, window.up_row = view.up, view.up_row
    return window


def posted(s: Session, wb: Workbook, args: Mapping[str, str]) -> tuple[Sheet, list[CellView]]:
    """The cells of the window `args` name that `args` also posts a value for (by their
    ids, ``b5``): what a save of the grid compares with what was typed."""
    f = _frame(s, wb, args)
    found = [(r, c) for r in f.rows for c in f.columns if a1(r, c).lower() in args]
    return f.sheet, [_view(f.book, f.sheet.id, r, c, False) for r, c in found]


def kept_rows(text: str) -> list[int]:
    """The rows a ``keep`` parameter names (``"5,17"``): rows edited under a filter, which
    stay shown, as Sheets re-filters only when the filter itself changes."""
    rows = {int(x) for x in text.split(",")[:MAX_KEPT] if x.strip().isdigit()}
    return sorted(r for r in rows if 1 <= r <= MAX_ROWS)


def _inside(areas: list[Area], r: int, c: int) -> bool:
    return any(a.contains(r, c) for a in areas)


def data_region(data: Any, r: int, c: int) -> Area:
    """The contiguous block of filled cells around (r, c), as Sheets takes it when one
    cell is selected: grown row by row and column by column while a neighbouring line
    holds a value."""
    filled = data.values
    r1 = r2 = r
    c1 = c2 = c
    grown = True
    while grown:
        grown = False
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr1, rr2 = (r1 - 1, r1 - 1) if dr < 0 else (r2 + 1, r2 + 1) if dr else (r1, r2)
            cc1, cc2 = (c1 - 1, c1 - 1) if dc < 0 else (c2 + 1, c2 + 1) if dc else (c1, c2)
            if min(rr1, cc1) < 1:
                continue
            if any(
                filled.get((i, j)) not in (None, "")
                for i in range(rr1, rr2 + 1)
                for j in range(cc1, cc2 + 1)
            ):
                r1, r2, c1, c2 = min(r1, rr1), max(r2, rr2), min(c1, cc1), max(c2, cc2)
                grown = True
    return Area(r1, c1, r2, c2)


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


def view_params(g: Grid) -> dict[str, str]:
    """The URL parameters of the view `g` shows as it is: its window, filter view and
    whole selection (with the end the person moved)."""
    return window_link(g) | {"sel": g.selection.a1()} | ({"end": g.end_a1} if g.end else {})


def window_link(g: Grid, rows: int = 0, cols: int = 0) -> dict[str, str]:
    """The URL parameters of the window moved by whole pages, as Sheets' Page Up and Page
    Down: the filter view (and the rows it keeps) stays, and the selection moves with the
    window, in its column (or row); under a filter a page is the rows it shows."""
    left = max(1, min(MAX_COLS, g.left + cols * COLS))
    col = max(1, min(MAX_COLS, g.selection.c1 + cols * COLS))
    out = {"sheet": g.sheet.name}
    if g.filter is None:
        top = max(1, min(MAX_ROWS, g.top + rows * ROWS))
        row = max(1, min(MAX_ROWS, g.selection.r1 + rows * ROWS))
    else:
        top, row = g.top, g.selection.r1
        if rows > 0 and g.after:
            top = row = g.after
        elif rows < 0 and g.before:
            top, row = g.up, g.up_row
        out |= {"filter_col": g.filter[0], "filter": g.filter[1]}
        if g.kept:
            out["keep"] = ",".join(map(str, g.kept))
    return out | {"at": a1(top, left), "sel": a1(row, col)}
