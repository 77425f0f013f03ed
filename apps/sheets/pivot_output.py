"""What a pivot table shows, computed in one place for the app and the graders.

A pivot reads a source range whose first row names the fields, groups its rows by the
row and column fields, summarises values (SUM, COUNT, COUNTA, AVERAGE, MIN, MAX) and
keeps rows that pass its filters. Layout: a header row (the row fields, then one column
per column-group key and value, then Grand Total), one row per row-group key, and a
Grand Total row. Groups are in ascending order unless the pivot's `sort` says otherwise
for a field (Sheets' pivot editor "Order" and "Sort by": descending, or by a summarised
value's total within each group, `ordered`).

`output(book, pivot)` is that table for a `Book` as it holds now (a `#REF!` table when a
field is gone from the source); `render(book, pivot)` writes it at the pivot's anchor,
clearing what its previous output left; `intact(book, pivot)` says whether the pivot's
cells hold what it computes. The service (`pivots.py`) and the graders' perturbed
copies (`tasks/sheets/perturb.py`) both call these, so they never disagree.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.refs import Area, parse_area
from officegym.apps.sheets.values import Value, XlError, compare, general
from officegym.errors import Invalid

__all__ = [
    "BLANK",
    "MAX_GROUPS",
    "Draft",
    "PivotSpec",
    "compute",
    "extent_of",
    "feeds",
    "intact",
    "ordered",
    "output",
    "overlaps",
    "place",
    "render",
    "typed_input",
]

MAX_GROUPS = 2000
BLANK = "(blank)"
Row = list[Value]


class PivotSpec(Protocol):
    """What a pivot is (the `Pivot` model's columns; a row read from its table, or a
    `Draft` of one not yet saved, will do)."""

    source_sheet_id: int
    source: str
    target_sheet_id: int
    anchor: str
    extent: str
    rows: Any
    columns: Any
    values: Any
    filters: Any
    sort: Any  # {field: {"order": "ASCENDING" | "DESCENDING", "value": index in values}}


@dataclass(frozen=True)
class Draft:
    """A pivot about to be created (a `PivotSpec` before it has a row)."""

    source_sheet_id: int
    source: str
    target_sheet_id: int
    anchor: str
    rows: Sequence[str]
    columns: Sequence[str]
    values: Sequence[dict[str, str]]
    filters: dict[str, list[Any]]
    extent: str = ""
    sort: dict[str, dict[str, Any]] = field(default_factory=dict)


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


def _cmp(x: Value, y: Value) -> int:
    """Group labels in ascending order: numbers before text, then by value."""
    if type(x) is type(y) or not (isinstance(x, str) or isinstance(y, str)):
        return compare(x, y)
    return -1 if not isinstance(x, str) else 1


def _sorted(keys: Iterable[tuple]) -> list[tuple]:
    def cmp(a: tuple, b: tuple) -> int:
        for x, y in zip(a, b, strict=True):
            c = _cmp(x, y)
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


def _group(b: Book, p: PivotSpec) -> _Groups:
    headers, data = _records(b, p.source_sheet_id, parse_area(p.source))
    index = {h.lower(): i for i, h in enumerate(headers)}
    for f in [*p.rows, *p.columns, *(v["field"] for v in p.values), *p.filters]:
        if f.lower() not in index:
            raise Invalid(f"the source has no column {f!r} (columns: {', '.join(headers)})")
    g = _Groups(headers, index, p.rows, p.columns, p.values, {}, [], [])
    keep = [r for r in data if all(_matches(g.at(r, f), ok) for f, ok in p.filters.items())]
    for r in keep:
        key = (tuple(_key(g.at(r, f)) for f in p.rows), tuple(_key(g.at(r, f)) for f in p.columns))
        g.cells.setdefault(key, []).append(r)
    g.row_keys = ordered(g, p.rows, _sorted({k[0] for k in g.cells}), p.sort or {})
    g.col_keys = ordered(g, p.columns, _sorted({k[1] for k in g.cells}), p.sort or {})
    if len(g.row_keys) * max(1, len(g.col_keys)) > MAX_GROUPS:
        raise Invalid(f"the pivot would have more than {MAX_GROUPS} groups; group by fewer fields")
    return g


def _spec(sort: dict[str, Any], name: str) -> tuple[bool, int | None]:
    """A field's sort: (descending, index of the value it sorts by, or None for its own
    labels)."""
    spec = next((v for k, v in sort.items() if k.lower() == name.lower()), None) or {}
    return spec.get("order") == "DESCENDING", spec.get("value")


def ordered(g: _Groups, fields: Sequence[str], keys: list[tuple], sort: dict) -> list[tuple]:
    """Group keys (tuples over `fields`, ascending) in the order `sort` asks, field by
    field so that groups stay together: a field's labels ascending or descending, or
    the total of a summarised value over each group (a row group's, or a column group's
    Grand Total), ties by label."""
    specs = [_spec(sort, f) for f in fields]
    if not any(desc or value is not None for desc, value in specs):
        return keys
    totals = _totals(g, specs, 0 if fields is g.rows else 1)

    def cmp(a: tuple, b: tuple) -> int:
        for i, (desc, value) in enumerate(specs):
            c = 0
            if value is not None and totals:
                c = _cmp(_number(totals[(a[: i + 1], value)]), _number(totals[(b[: i + 1], value)]))
            c = c or _cmp(a[i], b[i])
            if c:
                return -c if desc else c
        return 0

    return sorted(keys, key=functools.cmp_to_key(cmp))


def _number(v: Value) -> float:
    """A total as a sort key: an error (an AVERAGE of nothing) sorts first."""
    return v if isinstance(v, float) else -math.inf


def _totals(g: _Groups, specs: list[tuple[bool, int | None]], side: int) -> dict[tuple, Value]:
    """Each row group's (`side` 0) or column group's (1) summarised value at every level,
    for the values sorted by."""
    rows_of: dict[tuple, list[Row]] = {}
    for keys, rows in g.cells.items():
        key = keys[side]
        for i in range(len(key)):
            rows_of.setdefault(key[: i + 1], []).extend(rows)
    out: dict[tuple, Value] = {}
    for value in {v for _, v in specs if v is not None}:
        v = g.values[value]
        for prefix, rows in rows_of.items():
            out[(prefix, value)] = _summary(v["summary"], [g.at(r, v["field"]) for r in rows])
    return out


def compute(b: Book, p: PivotSpec) -> list[Row]:
    """The pivot table's cells: a header row, a row per row key, a Grand Total row;
    `Invalid` when a field it names is not in the source."""
    g = _group(b, p)
    out = [g.header()]
    if p.rows:
        out += [g.line(list(rk), [rk]) for rk in g.row_keys]
    total: Row = ["Grand Total", *[None] * (len(p.rows) - 1)] if p.rows else []
    out.append(g.line(total, g.row_keys if p.rows else [()]))
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


def typed_input(v: Value) -> str:
    """What typing a pivot cell's value means (text that looks like a formula stays text)."""
    if isinstance(v, XlError):
        return v.code
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return general(v)
    return "'" + v if isinstance(v, str) and v[:1] in "='" else str(v)


def output(b: Book, p: PivotSpec) -> list[Row]:
    """The pivot's table from the book's current values; a field renamed or deleted from
    the source gives a one-cell table saying so (as `#REF!`)."""
    try:
        return compute(b, p)
    except Invalid as exc:
        return [[f"#REF! {exc.message}"]]


def _inputs(anchor: Area, table: list[Row]) -> dict[tuple[int, int], str]:
    return {
        (anchor.r1 + i, anchor.c1 + j): typed_input(v)
        for i, row in enumerate(table)
        for j, v in enumerate(row)
        if v is not None
    }


def overlaps(a: Area, b: Area) -> bool:
    """Whether two areas share a cell."""
    return not (a.r2 < b.r1 or b.r2 < a.r1 or a.c2 < b.c1 or b.c2 < a.c1)


def extent_of(anchor: Area, table: list[Row]) -> Area:
    """Where a table written from `anchor` lands."""
    return Area(
        anchor.r1, anchor.c1, anchor.r1 + len(table) - 1, anchor.c1 + max(map(len, table)) - 1
    )


def place(
    b: Book, p: PivotSpec, table: list[Row], extent: str | None = None
) -> tuple[list[Key], str]:
    """Write `table` at the pivot's anchor, emptying the cells of its previous output
    (`extent`, by default the pivot's) that the table no longer covers; returns the
    changed cells and the new extent (A1)."""
    anchor, sid = parse_area(p.anchor), p.target_sheet_id
    new = _inputs(anchor, table)
    old = p.extent if extent is None else extent
    keys: list[Key] = []
    if old:
        area = parse_area(old)
        for r in range(area.r1, area.r2 + 1):
            for c in range(area.c1, area.c2 + 1):
                if (r, c) not in new and b.cell(sid, r, c) is not None:
                    b.set_input(sid, r, c, None)
                    keys.append((sid, r, c))
    for (r, c), text in new.items():
        state = b.cell(sid, r, c)
        if state is None or state.input != text:
            b.set_input(sid, r, c, text)
            keys.append((sid, r, c))
    return keys, extent_of(anchor, table).a1()


def feeds(b: Book, p: PivotSpec, keys: Iterable[Key]) -> bool:
    """Whether a change to `keys` (or the book's last recalculation) reaches the pivot's
    source, so its output must be computed again."""
    src = parse_area(p.source)
    return any(k[0] == p.source_sheet_id and src.contains(k[1], k[2]) for k in [*keys, *b.dirty])


def render(b: Book, p: PivotSpec, extent: str | None = None) -> tuple[list[Key], str]:
    """Recompute the pivot from the book and write it (see `place`)."""
    return place(b, p, output(b, p), extent)


def intact(b: Book, p: PivotSpec) -> tuple[bool, str]:
    """Whether the pivot's output cells hold exactly what it computes from the book now
    (nothing typed over them, nothing left over); with the first cell that differs."""
    table = output(b, p)
    want = _inputs(parse_area(p.anchor), table)
    area = extent_of(parse_area(p.anchor), table)
    if p.extent:
        old = parse_area(p.extent)
        area = Area(min(area.r1, old.r1), min(area.c1, old.c1),
                    max(area.r2, old.r2), max(area.c2, old.c2))  # fmt: skip
    for r in range(area.r1, area.r2 + 1):
        for c in range(area.c1, area.c2 + 1):
            state = b.cell(p.target_sheet_id, r, c)
            got = state.input if state is not None else None
            if got != want.get((r, c)):
                return (
                    False,
                    f"{Area(r, c, r, c).a1()} holds {got!r}, the pivot gives {want.get((r, c))!r}",
                )
    return True, "the pivot's cells hold what it computes"
