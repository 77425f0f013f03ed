"""Browser steps of the sheets' reads (the grid windows, the filter view, the find page,
the workbook's pages) and of copying, which types the translated inputs at the
destination (the pages have no clipboard)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from officegym.apps.browser_steps import goto
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.browser_base import Args, Make, fill_block, grid_url, place, workbook
from officegym.apps.sheets.moves import translate
from officegym.apps.sheets.refs import Area, a1
from officegym.apps.sheets.views import COLS, ROWS

__all__ = ["copy", "filter_rows", "find", "open_page", "read"]


def read(a: Args, w: Session, me: Person) -> list[str]:
    """The grid windows that show the range (formulas shown when asked for)."""
    wb = workbook(w, me, a)
    sheet, area = place(w, wb, a["range"], a.get("sheet"))
    extra = {"formulas": "1"} if a.get("mode") == "formulas" else {}
    first = grid_url(wb, sheet, sel=area.a1(), **extra)  # the status bar sums the selection
    return [first] + [
        grid_url(wb, sheet, at=a1(r, c), sel=a1(r, c), **extra)
        for r in range(area.r1, area.r2 + 1, ROWS)
        for c in range(area.c1, area.c2 + 1, COLS)
        if (r, c) != (area.r1, area.c1)
    ]


def filter_rows(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    sheet, area = place(w, wb, a["range"], a.get("sheet"))
    where = {"filter_col": a["column"].upper(), "filter": a["condition"]}
    last = Area(area.r1, area.c2, area.r2, area.c2)  # the status bar sums the last column
    return [grid_url(wb, sheet, sel=last.a1(), **where)]


def find(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    flags = {
        "exact": "1" if a.get("exact") else None,
        "formulas": "1" if a.get("in_formulas") else None,
    }
    return [goto(f"/sheets/{wb.id}/find", q=a["query"], sheet=a.get("sheet"), **flags)]


def open_page(path: str = "") -> Make:
    return lambda a, w, me: [goto(f"/sheets/{workbook(w, me, a).id}{path}")]


def copy(a: Args, w: Session, me: Person) -> list[str]:
    """Copying is typing the translated inputs at the destination (the page has no
    clipboard): read the source's inputs through the service, as the copy would paste."""
    wb = workbook(w, me, a)
    _, src = place(w, wb, a["source"], a.get("sheet"))
    dst_sheet, dst = place(w, wb, a["destination"], a.get("sheet"))
    block = sheets.read_range(w, me, wb, src.label(), mode="formulas").rows
    dr, dc = dst.r1 - src.r1, dst.c1 - src.c1
    moved = [
        [
            ("=" + translate(v[1:], dr, dc)) if isinstance(v, str) and v.startswith("=") else v
            for v in row
        ]
        for row in block
    ]
    return [
        *read({"workbook": a["workbook"], "range": src.label()}, w, me),
        *fill_block(wb, dst_sheet, dst.r1, dst.c1, moved),
    ]
