"""What the sheets' browser steps share: the workbook a call names, the grid's URL, the
area a range names in the initial world, and typing a block of cells into the grid a
window at a time (see `browser.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.browser_steps import act, goto
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import Area, a1, parse_area
from officegym.apps.sheets.values import general
from officegym.apps.sheets.views import COLS, ROWS
from officegym.errors import NotFound

__all__ = ["Args", "Make", "fill_block", "grid_url", "place", "text", "workbook"]

Args = Mapping[str, Any]
Make = Callable[[Args, Session, Person], list[str]]


def workbook(w: Session, me: Person, a: Args) -> Workbook:
    """The workbook a call names; one the solution creates first gets the next id."""
    try:
        return sheets.find_workbook(w, me, a["workbook"])
    except NotFound:
        return Workbook(id=sheets.next_workbook_id(w), name=str(a["workbook"]))


def grid_url(wb: Workbook, sheet: str | None = None, **query: Any) -> str:
    return goto(f"/sheets/{wb.id}", sheet=sheet, **query)


def place(w: Session, wb: Workbook, ref: str, sheet: str | None) -> tuple[str, Area]:
    """The sheet name and area a tool's range names (clipped to the sheet's used cells)."""
    try:
        target, area = sheets.locate(w, wb, ref, sheet)
    except NotFound:  # a workbook or sheet the solution makes first: the range as written
        area = parse_area(ref)
        name = area.sheet or sheet or "Sheet1"
        return name, Area(area.r1, area.c1, area.r2, area.c2, name)
    data = sheets.book(w, wb.id).sheets[target.id]
    r2, c2 = min(area.r2, max(data.max_row, area.r1)), min(area.c2, max(data.max_col, area.c1))
    return target.name, Area(area.r1, area.c1, r2, c2, target.name)


def text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    return general(float(v)) if isinstance(v, int | float) else str(v)


def fill_block(wb: Workbook, sheet: str, top: int, left: int, rows: list[list[Any]]) -> list[str]:
    """Type a block into the grid a window (ROWS x COLS) at a time, as a person does:
    click its first cell, type each cell, and press Enter in the last one (the grid's
    script saves every cell typed in); a window's block beyond the first is the same."""
    out: list[str] = []
    width = max((len(r) for r in rows), default=0)
    for i0 in range(0, len(rows), ROWS):
        for j0 in range(0, width, COLS):
            corner = a1(top + i0, left + j0)
            typed = [
                (a1(top + i0 + i, left + j0 + j).lower(), text(v))
                for i, row in enumerate(rows[i0 : i0 + ROWS])
                for j, v in enumerate(row[j0 : j0 + COLS])
            ]
            if not typed:
                continue
            out += [grid_url(wb, sheet, at=corner, sel=corner), act("click", typed[0][0])]
            out += [act("fill", cell, value) for cell, value in typed]
            out.append(act("press", typed[-1][0], "Enter"))
    return out
