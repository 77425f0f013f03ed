"""The fill handle, as in Sheets: a selection dragged down or right fills the cells past
it, continuing each column's (or row's) series (`series.extend`) or, where the cells
make none, repeating them with formulas' relative references moved along. The selected
cells themselves never change."""

from __future__ import annotations

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.cells import MAX_WRITE, apply
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.paste import _copied as copied  # a cell copied, references moved
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import Area, parse_area
from officegym.apps.sheets.series import extend
from officegym.errors import Invalid

__all__ = ["fill_series"]


def fill_series(
    s: Session, actor: Person, wb: Workbook, ref: str, to: str, *, sheet: str | None = None
) -> Area:
    """Fill from the range `ref` to the cell `to` (below it: down; right of it: right),
    as dragging the fill handle there does; returns the range filled."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    end = parse_area(to)
    if end.r1 > area.r2:
        filled, down = Area(area.r2 + 1, area.c1, end.r1, area.c2, target.name), True
    elif end.c1 > area.c2:
        filled, down = Area(area.r1, area.c2 + 1, area.r2, end.c1, target.name), False
    else:
        raise Invalid(f"drag the fill handle below or right of {area.a1()} (it ended at {to})")
    if filled.size > MAX_WRITE:
        raise Invalid(f"fill at most {MAX_WRITE} cells at a time")
    b = store.book(s, wb.id)
    inputs = _filled(b, target.id, area, filled, down)
    for (r, c), (_text, fmt) in inputs.items():
        b.set_format(target.id, r, c, fmt)
    apply(
        s, actor, wb, target, {k: t for k, (t, _f) in inputs.items()}, "fill_series", filled.label()
    )
    return filled


def _filled(
    b: Book, sid: int, src: Area, filled: Area, down: bool
) -> dict[tuple[int, int], tuple[str | None, str | None]]:
    """Each filled cell's input and format: the series of its line of the source, or the
    source cell it repeats."""
    out = {}
    lines = range(src.c1, src.c2 + 1) if down else range(src.r1, src.r2 + 1)
    for line in lines:
        places = [(r, line) for r in range(src.r1, src.r2 + 1)] if down else [
            (line, c) for c in range(src.c1, src.c2 + 1)]  # fmt: skip
        dests = [(r, line) for r in range(filled.r1, filled.r2 + 1)] if down else [
            (line, c) for c in range(filled.c1, filled.c2 + 1)]  # fmt: skip
        texts = [(b.cell(sid, *p).input if b.cell(sid, *p) else None) for p in places]
        series = extend(texts, len(dests))
        for k, dest in enumerate(dests):
            text, fmt = copied(b, sid, places[k % len(places)], dest)
            out[dest] = (series[k] if series is not None else text, fmt)
    return out
