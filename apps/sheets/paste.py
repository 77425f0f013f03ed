"""Fill and paste: copying cells (inputs and formats) down, right or to another place,
with the relative references of formulas moving by the offset, as a spreadsheet's
fill handle and paste do."""

from __future__ import annotations

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.cells import MAX_WRITE, apply
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.moves import translate
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area
from officegym.errors import Invalid

__all__ = ["copy_range", "fill_range"]


def _copied(
    b: Book, sid: int, src: tuple[int, int], dst: tuple[int, int]
) -> tuple[str | None, str | None]:
    state = b.cell(sid, *src)
    if state is None:
        return None, None
    text = state.input
    if text and text.startswith("=") and state.formula is not None:
        text = "=" + translate(text[1:], dst[0] - src[0], dst[1] - src[1])
    return text, state.fmt


def fill_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    ref: str,
    *,
    direction: str = "down",
    sheet: str | None = None,
) -> Area:
    """Copy a range's first row into the rows below it (``down``), or its first column
    into the columns right of it (``right``); relative references move along."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    if direction not in ("down", "right"):
        raise Invalid("direction is down or right")
    if area.size > MAX_WRITE or area.r2 == MAX_ROWS or area.c2 == MAX_COLS:
        raise Invalid(f"fill at most {MAX_WRITE} cells, in a bounded range such as B2:B50")
    b = store.book(s, wb.id)
    inputs, formats = {}, {}
    for r in range(area.r1, area.r2 + 1):
        for c in range(area.c1, area.c2 + 1):
            src = (area.r1, c) if direction == "down" else (r, area.c1)
            if (r, c) != src:
                inputs[(r, c)], formats[(r, c)] = _copied(b, target.id, src, (r, c))
    for (r, c), fmt in formats.items():
        b.set_format(target.id, r, c, fmt)
    apply(s, actor, wb, target, inputs, f"fill_{direction}", area.label())
    return area


def copy_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    source: str,
    dest: str,
    *,
    sheet: str | None = None,
    tiles: tuple[int, int] = (1, 1),
) -> Area:
    """Copy a range (inputs and formats) so its top-left lands on `dest`; formulas'
    relative references move by the offset, as pasting does. `tiles` (down, across)
    repeats the copy side by side, as a paste over a destination that many times the
    source's size does."""
    require_edit(s, actor, wb)
    src_sheet, src = locate(s, wb, source, sheet)
    dst_sheet, dst = locate(s, wb, dest, sheet)
    if src.size > MAX_WRITE or src.r2 == MAX_ROWS or src.c2 == MAX_COLS:
        raise Invalid(f"copy at most {MAX_WRITE} cells, from a bounded range")
    b = store.book(s, wb.id)
    down, across = tiles
    if down < 1 or across < 1 or src.size * down * across > MAX_WRITE:
        raise Invalid(f"paste at most {MAX_WRITE} cells")
    rows, cols = src.rows * down, src.cols * across
    if dst.r1 + rows - 1 > MAX_ROWS or dst.c1 + cols - 1 > MAX_COLS:
        raise Invalid("the copy runs off the sheet")
    inputs, formats = {}, {}
    for i in range(down):
        for j in range(across):
            at = (dst.r1 + i * src.rows, dst.c1 + j * src.cols)
            for r in range(src.r1, src.r2 + 1):
                for c in range(src.c1, src.c2 + 1):
                    to = (r - src.r1 + at[0], c - src.c1 + at[1])
                    inputs[to], formats[to] = _copied(b, src_sheet.id, (r, c), to)
    for (r, c), fmt in formats.items():
        b.set_format(dst_sheet.id, r, c, fmt)
    written = Area(dst.r1, dst.c1, dst.r1 + rows - 1, dst.c1 + cols - 1, dst_sheet.name)
    apply(s, actor, wb, dst_sheet, inputs, "copy", f"{src.label()} -> {written.label()}")
    return written
