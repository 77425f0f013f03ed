"""Pivot tables as objects (as in Google Sheets): created, refreshed and deleted here;
what one shows is computed in `pivot_output.py` (shared with the graders). A pivot is
rewritten whenever a cell of its source changes, rows or columns move, or on
`refresh_pivot`. Its output cells belong to it: writing into them is refused
(`guard_outputs`), as Sheets refuses typing over a pivot table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.history import record
from officegym.apps.sheets.models import SUMMARIES, Pivot, Workbook
from officegym.apps.sheets.pivot_output import (
    Draft,
    compute,
    extent_of,
    feeds,
    overlaps,
    place,
    render,
)
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import Area, a1, parse_area
from officegym.db import get, read
from officegym.errors import Conflict, Invalid
from officegym.memo import recall, watch
from officegym.writes import delete_row, insert_row, update_row

__all__ = [
    "compute",
    "create_pivot",
    "delete_pivot",
    "guard_outputs",
    "pivots_of",
    "refresh_all",
    "refresh_fed_by",
    "refresh_pivot",
]


# A tool runner's session remembers which pivots a workbook has (every write asks, to
# refresh the ones it feeds; most workbooks have none) until a pivot row is written.
watch("sheets.pivots", Pivot)


def pivots_of(s: Session, wb: Workbook) -> list[Pivot]:
    ids = recall(s, "sheets.pivots", wb.id, lambda: _pivot_ids(s, wb.id))
    return [p for p in (get(s, Pivot, i) for i in ids) if p is not None]


def _pivot_ids(s: Session, workbook_id: int) -> list[int]:
    stmt = select(Pivot.id).where(Pivot.workbook_id == workbook_id).order_by(Pivot.id)
    return list(read(s, stmt).scalars())


def _check(
    values: Sequence[dict[str, str]], rows: Sequence[str], columns: Sequence[str]
) -> list[dict[str, str]]:
    if not values:
        raise Invalid(
            "a pivot needs at least one value to summarise, e.g. "
            "{'field': 'Amount', 'summary': 'SUM'}"
        )
    out = []
    for v in values:
        summary = str(v.get("summary", "SUM")).upper()
        if summary not in SUMMARIES or not v.get("field"):
            raise Invalid(f"each value needs a field and a summary among {', '.join(SUMMARIES)}")
        out.append({"field": str(v["field"]), "summary": summary})
    if len(rows) + len(columns) > 4:
        raise Invalid("group by at most 4 fields")
    return out


def _check_sort(
    sort: dict[str, dict[str, Any]], rows: Sequence[str], columns: Sequence[str], n_values: int
) -> dict[str, dict[str, Any]]:
    """A pivot's sort, checked: each key a row or column field, an order ASCENDING or
    DESCENDING, and optionally the index of the value whose totals it sorts by."""
    out: dict[str, dict[str, Any]] = {}
    for name, spec in sort.items():
        is_row = any(name.lower() == f.lower() for f in rows)
        if not is_row and not any(name.lower() == f.lower() for f in columns):
            raise Invalid(f"sort names {name!r}, which is not a row or column group")
        order = str(spec.get("order", "ASCENDING")).upper()
        if order not in ("ASCENDING", "DESCENDING"):
            raise Invalid(f"sort order of {name!r} is ASCENDING or DESCENDING")
        clean: dict[str, Any] = {"order": order}
        value = spec.get("value")
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_values:
                raise Invalid(f"sort of {name!r} by value: the index of one of its values")
            clean["value"] = value
        out[name] = clean
    return out


def _placement(
    s: Session, wb: Workbook, source: str, anchor: str, sheet: str | None
) -> dict[str, Any]:
    """Where a new pivot reads and writes (the Pivot row's columns)."""
    src_sheet, src = locate(s, wb, source, sheet)
    dst_sheet, dst = locate(s, wb, anchor, sheet)
    return {"source_sheet_id": src_sheet.id, "source": src.a1(),
            "target_sheet_id": dst_sheet.id, "anchor": a1(dst.r1, dst.c1)}  # fmt: skip


def create_pivot(
    s: Session,
    actor: Person,
    wb: Workbook,
    source: str,
    anchor: str,
    *,
    rows: Sequence[str] = (),
    columns: Sequence[str] = (),
    values: Sequence[dict[str, str]] = (),
    filters: dict[str, list[Any]] | None = None,
    sheet: str | None = None,
    sort: dict[str, dict[str, Any]] | None = None,
) -> Pivot:
    """A pivot table of `source` (a range whose first row holds the field names) written
    at `anchor` (a cell, possibly on another sheet); `sort` orders group fields (see
    `Pivot.sort`)."""
    require_edit(s, actor, wb)
    where = _placement(s, wb, source, anchor, sheet)
    spec = {"rows": list(rows), "columns": list(columns), "values": _check(values, rows, columns)}
    spec["sort"] = _check_sort(sort or {}, rows, columns, len(values))
    b = store.book(s, wb.id)
    src = parse_area(where["source"])
    table = compute(b, Draft(**where, **spec, filters=filters or {}))
    out = extent_of(parse_area(where["anchor"]), table)
    if where["source_sheet_id"] == where["target_sheet_id"] and overlaps(src, out):
        raise Invalid(
            f"the pivot at {out.a1()} would overlap its source {src.a1()}; put it elsewhere"
        )
    _refuse_overlap(s, wb, where["target_sheet_id"], out)
    pivot = insert_row(
        s, Pivot, workbook_id=wb.id, filters=filters or {}, extent="", **where, **spec
    )
    keys, extent = place(b, pivot, table)
    update_row(s, pivot, extent=extent)
    b.recalc(keys)
    store.save(s, b)
    target = f"{source} -> {anchor}"
    record(s, actor, wb, "create_pivot", target, spec, sheet_id=where["target_sheet_id"])
    return pivot


def _refuse_overlap(s: Session, wb: Workbook, sheet_id: int, out: Area) -> None:
    """A new pivot may not write over another pivot's cells."""
    for other in pivots_of(s, wb):
        mine = other.target_sheet_id == sheet_id and other.extent
        if mine and overlaps(out, parse_area(other.extent)):
            raise Conflict(
                f"the pivot at {out.a1()} would overlap pivot table {other.id} at "
                f"{other.extent}; put it elsewhere or delete that one first"
            )


def _run(s: Session, b: Book, pivot: Pivot) -> list[Key]:
    """Recompute and rewrite a pivot (a `#REF!` table when a source field is gone)."""
    keys, extent = render(b, pivot)
    if extent != pivot.extent:
        update_row(s, pivot, extent=extent)
    return keys


def refresh_pivot(s: Session, actor: Person, wb: Workbook, pivot: Pivot) -> Pivot:
    """Recompute a pivot table from its source now."""
    require_edit(s, actor, wb)
    b = store.book(s, wb.id)
    b.recalc(_run(s, b, pivot))
    store.save(s, b)
    record(s, actor, wb, "refresh_pivot", pivot.anchor, sheet_id=pivot.target_sheet_id)
    return pivot


def delete_pivot(s: Session, actor: Person, wb: Workbook, pivot: Pivot) -> None:
    """Delete a pivot table and clear its output."""
    require_edit(s, actor, wb)
    b = store.book(s, wb.id)
    keys, _extent = place(b, pivot, [[]])
    b.recalc(keys)
    store.save(s, b)
    delete_row(s, pivot)
    record(s, actor, wb, "delete_pivot", pivot.anchor, sheet_id=pivot.target_sheet_id)


def refresh_fed_by(s: Session, wb: Workbook, b: Book, keys: Sequence[Key], depth: int = 0) -> None:
    """Refresh every pivot of the workbook whose source holds one of the changed cells
    (including cells recalculated because of them)."""
    if depth > 3 or not keys:
        return
    for pivot in pivots_of(s, wb):
        if feeds(b, pivot, keys):
            changed = _run(s, b, pivot)
            b.recalc(changed)
            refresh_fed_by(s, wb, b, changed, depth + 1)


def refresh_all(s: Session, wb: Workbook, b: Book) -> None:
    """Rewrite every pivot of the workbook (after rows or columns moved under them)."""
    for pivot in pivots_of(s, wb):
        b.recalc(_run(s, b, pivot))


def guard_outputs(
    s: Session, wb: Workbook, sheet_id: int, cells: Iterable[tuple[int, int]]
) -> None:
    """Refuse (`Conflict`, naming the pivot) a change to cells a pivot table writes: its
    output belongs to it. Callers pass the cells whose content would change."""
    outputs = [
        (p, parse_area(p.extent))
        for p in pivots_of(s, wb)
        if p.target_sheet_id == sheet_id and p.extent
    ]
    if not outputs:
        return
    for r, c in cells:
        for p, area in outputs:
            if area.contains(r, c):
                raise Conflict(
                    f"{a1(r, c)} is part of pivot table {p.id} (at {p.extent}, from "
                    f"{p.source}): its cells are computed; change the pivot, or delete it "
                    "first to type there",
                    code="pivot_cells",
                )
