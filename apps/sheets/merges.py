"""Merged cells: a range shown as one cell, its top-left holding the value. Merging
keeps every cell's content (the clone does not delete the hidden cells' data); a merge
that would cut through an existing one is refused as Sheets refuses it, and one that
covers existing merges replaces them."""

from __future__ import annotations

from typing import Literal, get_args

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.history import record
from officegym.apps.sheets.models import Merge, Sheet, Workbook
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import Area
from officegym.apps.sheets.xlsx import MAX_MERGES
from officegym.errors import Invalid
from officegym.writes import delete_row, insert_row

__all__ = ["HOW", "How", "merge_cells", "merges_of", "unmerge_cells"]

How = Literal["all", "columns", "rows"]
HOW: tuple[How, ...] = get_args(How)
_CUT = "You must select all cells in a merged range to merge or unmerge them."


def merges_of(s: Session, sheet: Sheet) -> list[Area]:
    """A sheet's merged ranges, in the order they were made."""
    rows = s.scalars(select(Merge).where(Merge.sheet_id == sheet.id).order_by(Merge.id))
    return [Area(m.r1, m.c1, m.r2, m.c2, sheet.name) for m in rows]


def _pieces(area: Area, how: How) -> list[Area]:
    """The merges `how` makes of `area`: one, one per column, or one per row (single
    cells are not merges)."""
    if (area.rows if how == "rows" else area.cols if how == "columns" else 1) > MAX_MERGES:
        raise Invalid(f"a sheet holds at most {MAX_MERGES} merged ranges")
    if how == "columns":
        found = [Area(area.r1, c, area.r2, c) for c in range(area.c1, area.c2 + 1)]
    elif how == "rows":
        found = [Area(r, area.c1, r, area.c2) for r in range(area.r1, area.r2 + 1)]
    else:
        found = [area]
    return [a for a in found if a.size > 1]


def _overlap(a: Merge, b: Area) -> bool:
    return a.r1 <= b.r2 and b.r1 <= a.r2 and a.c1 <= b.c2 and b.c1 <= a.c2


def _inside(a: Merge, b: Area) -> bool:
    return b.r1 <= a.r1 and a.r2 <= b.r2 and b.c1 <= a.c1 and a.c2 <= b.c2


def _touched(s: Session, sheet: Sheet, area: Area) -> list[Merge]:
    """The sheet's merges inside `area`; `Invalid` if one is only partly inside."""
    found = []
    for m in s.scalars(select(Merge).where(Merge.sheet_id == sheet.id).order_by(Merge.id)):
        if _overlap(m, area):
            if not _inside(m, area):
                raise Invalid(_CUT)
            found.append(m)
    return found


def merge_cells(
    s: Session, actor: Person, wb: Workbook, ref: str, *, sheet: str | None = None, how: How = "all"
) -> list[Area]:
    """Merge a range (`how`: into one cell, or each column, or each row); returns the
    merged ranges made. Merges inside the range are replaced."""
    require_edit(s, actor, wb)
    if how not in HOW:
        raise Invalid(f"how is one of {', '.join(HOW)}")
    target, area = locate(s, wb, ref, sheet)
    pieces = _pieces(area, how)
    old = _touched(s, target, area)
    count = len(s.scalars(select(Merge.id).where(Merge.sheet_id == target.id)).all())
    if count - len(old) + len(pieces) > MAX_MERGES:
        raise Invalid(f"a sheet holds at most {MAX_MERGES} merged ranges")
    for m in old:
        delete_row(s, m)
    for p in pieces:
        insert_row(s, Merge, sheet_id=target.id, r1=p.r1, c1=p.c1, r2=p.r2, c2=p.c2)
    record(s, actor, wb, "merge", area.label(), {"how": how}, sheet_id=target.id)
    return [Area(p.r1, p.c1, p.r2, p.c2, target.name) for p in pieces]


def unmerge_cells(
    s: Session, actor: Person, wb: Workbook, ref: str, *, sheet: str | None = None
) -> int:
    """Undo every merge inside a range (their cells keep their content); returns how
    many. A merge only partly inside the range is refused, as Sheets does."""
    require_edit(s, actor, wb)
    target, area = locate(s, wb, ref, sheet)
    old = _touched(s, target, area)
    for m in old:
        delete_row(s, m)
    if old:
        record(s, actor, wb, "unmerge", area.label(), sheet_id=target.id)
    return len(old)
