"""Pivot tables as objects (as in Google Sheets): a source range whose first row names
the fields, row and column groups, summarised values (SUM, COUNT, COUNTA, AVERAGE,
MIN, MAX) and filters, written as a block of values at an anchor cell and rewritten
whenever a cell of the source changes (or on `refresh_pivot`).

Layout: a header row (the row fields, then one column per column-group key and value,
then Grand Total), one row per row-group key in ascending order, and a Grand Total row.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.history import record
from officegym.apps.sheets.models import SUMMARIES, Pivot, Sheet, Workbook
from officegym.apps.sheets.places import locate
from officegym.apps.sheets.refs import Area, a1, parse_area
from officegym.apps.sheets.values import Value, XlError, compare, general
from officegym.db import get, read
from officegym.errors import Invalid
from officegym.memo import recall, watch
from officegym.writes import delete_row, insert_row, update_row

__all__ = [
    "compute",
    "create_pivot",
    "delete_pivot",
    "pivots_of",
    "refresh_fed_by",
    "refresh_pivot",
]

MAX_GROUPS = 2000
BLANK = "(blank)"
Row = list[Value]


# A tool runner's session remembers which pivots a workbook has (every write asks, to
# refresh the ones it feeds; most workbooks have none) until a pivot row is written.
watch("sheets.pivots", Pivot)


def pivots_of(s: Session, wb: Workbook) -> list[Pivot]:
    ids = recall(s, "sheets.pivots", wb.id, lambda: _pivot_ids(s, wb.id))
    return [p for p in (get(s, Pivot, i) for i in ids) if p is not None]


def _pivot_ids(s: Session, workbook_id: int) -> list[int]:
    stmt = select(Pivot.id).where(Pivot.workbook_id == workbook_id).order_by(Pivot.id)
    return list(read(s, stmt).scalars())


def _records(b: Book, sid: int, area: Area) -> tuple[list[str], list[Row]]:
    """The source's header names and data rows (up to the last non-empty row)."""
    data = b.sheets[sid]
    c2 = min(area.c2, max(data.max_col, area.c1))
    headers = [str(data.values.get((area.r1, c), "") or "").strip() for c in range(area.c1, c2 + 1)]
    while headers and not headers[-1]:
        headers.pop()
    last = min(area.r2, data.max_row)
    rows = [
        [data.values.get((r, area.c1 + j)) for j in range(len(headers))]
        for r in range(area.r1 + 1, last + 1)
    ]
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    return headers, rows


def _summary(name: str, vals: list[Value]) -> Value:
    nums = [float(v) for v in vals if isinstance(v, float | int) and not isinstance(v, bool)]
    if name == "COUNTA":
        return float(sum(1 for v in vals if v is not None and v != ""))
    if name == "COUNT":
        return float(len(nums))
    if name == "SUM":
        return math.fsum(nums)
    if not nums:
        return XlError("#DIV/0!") if name == "AVERAGE" else 0.0
    if name == "AVERAGE":
        return math.fsum(nums) / len(nums)
    return min(nums) if name == "MIN" else max(nums)


def _key(v: Value) -> Value:
    return BLANK if v is None or v == "" else v


def _sorted(keys: Iterable[tuple]) -> list[tuple]:
    def cmp(a: tuple, b: tuple) -> int:
        for x, y in zip(a, b, strict=True):
            c = (
                compare(x, y)
                if type(x) is type(y) or not (isinstance(x, str) or isinstance(y, str))
                else (-1 if not isinstance(x, str) else 1)
            )
            if c:
                return c
        return 0

    return sorted(keys, key=functools.cmp_to_key(cmp))


@dataclass
class _Groups:
    """A pivot's source rows grouped by row key and column key."""

    headers: list[str]
    index: dict[str, int]
    rows: Sequence[str]
    columns: Sequence[str]
    values: Sequence[dict[str, str]]
    cells: dict[tuple[tuple, tuple], list[Row]]
    row_keys: list[tuple]
    col_keys: list[tuple]

    def at(self, row: Row, field: str) -> Value:
        return row[self.index[field.lower()]]

    def header(self) -> Row:
        labels = [
            f"{v['summary']} of {self.headers[self.index[v['field'].lower()]]}" for v in self.values
        ]
        head: Row = [self.headers[self.index[f.lower()]] for f in self.rows]
        for ck in self.col_keys if self.columns else [()]:
            name = " - ".join(general(x) if isinstance(x, float) else str(x) for x in ck)
            head += [f"{name} {label}".strip() for label in labels]
        if self.columns:
            head += [f"Grand Total {x}" if len(labels) > 1 else "Grand Total" for x in labels]
        return head

    def line(self, prefix: Row, picked: Sequence[tuple]) -> Row:
        """One output row: a summary per column key and value, then the row's totals."""
        cols = self.col_keys if self.columns else [()]
        spans = [[ck] for ck in cols] + ([cols] if self.columns else [])
        out = list(prefix)
        for span in spans:
            for v in self.values:
                group = [r for rk in picked for ck in span for r in self.cells.get((rk, ck), [])]
                out.append(_summary(v["summary"], [self.at(r, v["field"]) for r in group]))
        return out


def _group(
    b: Book,
    sid: int,
    area: Area,
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[dict[str, str]],
    filters: dict[str, list[Any]],
) -> _Groups:
    headers, data = _records(b, sid, area)
    index = {h.lower(): i for i, h in enumerate(headers)}
    for f in [*rows, *columns, *(v["field"] for v in values), *filters]:
        if f.lower() not in index:
            raise Invalid(f"the source has no column {f!r} (columns: {', '.join(headers)})")
    g = _Groups(headers, index, rows, columns, values, {}, [], [])
    keep = [r for r in data if all(_matches(g.at(r, f), ok) for f, ok in filters.items())]
    for r in keep:
        key = (tuple(_key(g.at(r, f)) for f in rows), tuple(_key(g.at(r, f)) for f in columns))
        g.cells.setdefault(key, []).append(r)
    g.row_keys = _sorted({k[0] for k in g.cells})
    g.col_keys = _sorted({k[1] for k in g.cells})
    if len(g.row_keys) * max(1, len(g.col_keys)) > MAX_GROUPS:
        raise Invalid(f"the pivot would have more than {MAX_GROUPS} groups; group by fewer fields")
    return g


def compute(
    b: Book,
    sid: int,
    area: Area,
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[dict[str, str]],
    filters: dict[str, list[Any]],
) -> list[Row]:
    """The pivot table's cells: a header row, a row per row key, a Grand Total row."""
    g = _group(b, sid, area, rows, columns, values, filters)
    out = [g.header()]
    if rows:
        out += [g.line(list(rk), [rk]) for rk in g.row_keys]
    total: Row = ["Grand Total", *[None] * (len(rows) - 1)] if rows else []
    out.append(g.line(total, g.row_keys if rows else [()]))
    return out


def _matches(v: Value, allowed: list[Any]) -> bool:
    key = _key(v)
    for a in allowed:
        if isinstance(key, str) and isinstance(a, str) and key.lower() == a.lower():
            return True
        if (
            isinstance(key, float)
            and isinstance(a, int | float)
            and not isinstance(a, bool)
            and key == float(a)
        ):
            return True
    return False


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


def _typed(v: Value) -> str:
    """What typing a pivot cell's value means (text that looks like a formula stays text)."""
    if isinstance(v, XlError):
        return v.code
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return general(v)
    return "'" + v if isinstance(v, str) and v[:1] in "='" else str(v)


def _write(s: Session, b: Book, pivot: Pivot, table: list[Row]) -> list[Key]:
    """Replace the pivot's previous output with `table`; returns the changed cells."""
    keys: list[Key] = []
    anchor, sid = parse_area(pivot.anchor), pivot.target_sheet_id
    new = {
        (anchor.r1 + i, anchor.c1 + j): _typed(v)
        for i, row in enumerate(table)
        for j, v in enumerate(row)
        if v is not None
    }
    if pivot.extent:
        old = parse_area(pivot.extent)
        for r in range(old.r1, old.r2 + 1):
            for c in range(old.c1, old.c2 + 1):
                if (r, c) not in new and b.cell(sid, r, c) is not None:
                    b.set_input(sid, r, c, None)
                    keys.append((sid, r, c))
    for (r, c), text in new.items():
        state = b.cell(sid, r, c)
        if state is None or state.input != text:
            b.set_input(sid, r, c, text)
            keys.append((sid, r, c))
    extent = Area(
        anchor.r1, anchor.c1, anchor.r1 + len(table) - 1, anchor.c1 + max(map(len, table)) - 1
    )
    if extent.a1() != pivot.extent:
        update_row(s, pivot, extent=extent.a1())
    return keys


def _extent(anchor: Area, table: list[Row]) -> Area:
    """Where a table written from `anchor` lands."""
    return Area(
        anchor.r1, anchor.c1, anchor.r1 + len(table) - 1, anchor.c1 + max(map(len, table)) - 1
    )


def _overlaps(a: Area, b: Area) -> bool:
    return not (a.r2 < b.r1 or b.r2 < a.r1 or a.c2 < b.c1 or b.c2 < a.c1)


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
) -> Pivot:
    """A pivot table of `source` (a range whose first row holds the field names) written
    at `anchor` (a cell, possibly on another sheet)."""
    require_edit(s, actor, wb)
    place = _placement(s, wb, source, anchor, sheet)
    spec = {"rows": list(rows), "columns": list(columns), "values": _check(values, rows, columns)}
    b = store.book(s, wb.id)
    src = parse_area(place["source"])
    table = compute(b, place["source_sheet_id"], src, rows, columns, spec["values"], filters or {})
    out = _extent(parse_area(place["anchor"]), table)
    if place["source_sheet_id"] == place["target_sheet_id"] and _overlaps(src, out):
        where = f"the pivot at {out.a1()} would overlap its source {src.a1()}"
        raise Invalid(f"{where}; put it elsewhere")
    pivot = insert_row(
        s, Pivot, workbook_id=wb.id, filters=filters or {}, extent="", **place, **spec
    )
    b.recalc(_write(s, b, pivot, table))
    store.save(s, b)
    target = f"{source} -> {anchor}"
    record(s, actor, wb, "create_pivot", target, spec, sheet_id=place["target_sheet_id"])
    return pivot


def _run(s: Session, b: Book, pivot: Pivot) -> list[Key]:
    src = parse_area(pivot.source)
    try:
        table = compute(
            b, pivot.source_sheet_id, src, pivot.rows, pivot.columns, pivot.values, pivot.filters
        )
    except Invalid as exc:  # a source column was renamed or deleted: say so in the table
        table = [[f"#REF! {exc.message}"]]
    return _write(s, b, pivot, table)


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
    keys = []
    if pivot.extent:
        area = parse_area(pivot.extent)
        for r in range(area.r1, area.r2 + 1):
            for c in range(area.c1, area.c2 + 1):
                if b.cell(pivot.target_sheet_id, r, c) is not None:
                    b.set_input(pivot.target_sheet_id, r, c, None)
                    keys.append((pivot.target_sheet_id, r, c))
    b.recalc(keys)
    store.save(s, b)
    delete_row(s, pivot)
    record(s, actor, wb, "delete_pivot", pivot.anchor, sheet_id=pivot.target_sheet_id)


def refresh_fed_by(s: Session, wb: Workbook, b: Book, keys: Sequence[Key], depth: int = 0) -> None:
    """Refresh every pivot of the workbook whose source holds one of the changed cells
    (including cells recalculated because of them)."""
    if depth > 3 or not keys:
        return
    pivots = pivots_of(s, wb)
    if not pivots:
        return
    for pivot in pivots:
        src = parse_area(pivot.source)
        if any(
            k[0] == pivot.source_sheet_id and src.contains(k[1], k[2]) for k in keys
        ) or _fed_by_formulas(b, pivot, src):
            changed = _run(s, b, pivot)
            b.recalc(changed)
            refresh_fed_by(s, wb, b, changed, depth + 1)


def _fed_by_formulas(b: Book, pivot: Pivot, src: Area) -> bool:
    """Whether the last recalculation changed a source cell (formulas in the source)."""
    return any(k[0] == pivot.source_sheet_id and src.contains(k[1], k[2]) for k in b.dirty)


_ = Sheet
