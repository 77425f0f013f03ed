"""Look-ups and references: VLOOKUP, HLOOKUP, XLOOKUP, INDEX, MATCH, XMATCH, LOOKUP,
ROW(S), COLUMN(S)."""

from __future__ import annotations

from typing import Any

from officegym.apps.sheets.functions import fn, scalar
from officegym.apps.sheets.functions.criteria import wildcard_pattern
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import (
    NA,
    REF,
    VALUE,
    Raise,
    Value,
    XlError,
    as_bool,
    as_number,
    compare,
)


def as_grid(v: object) -> list[list[Value]]:
    if isinstance(v, Rng):
        return v.matrix()
    if is_array(v):
        return v  # type: ignore[return-value]
    if isinstance(v, XlError):
        raise Raise(v)
    return [[v]]  # type: ignore[list-item]


def _vector(v: object) -> list[Value]:
    """A one-row or one-column range or array as a flat list; #N/A otherwise."""
    if isinstance(v, Rng):
        if v.cols == 1:
            return v.column(0)
        if v.rows == 1:
            return v.row(0)
        raise Raise(NA)
    g = as_grid(v)
    if len(g) == 1:
        return list(g[0])
    if g and len(g[0]) == 1:
        return [row[0] for row in g]
    raise Raise(NA)


def _same_kind(a: Value, b: Value) -> bool:
    num = (float, int)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    return (isinstance(a, num) and isinstance(b, num)) or (
        isinstance(a, str) and isinstance(b, str)
    )


def exact_position(
    x: Value, items: list[Value], *, wildcards: bool = True, reverse: bool = False
) -> int | None:
    """Index of the first (or last) item equal to `x` (text ignoring case, with * ? ~)."""
    pattern = wildcard_pattern(x) if wildcards and isinstance(x, str) else None
    order = range(len(items) - 1, -1, -1) if reverse else range(len(items))
    if pattern is None and type(x) is float and not reverse and x == x:
        return _first_number(x, items)
    if pattern is None and type(x) is float:  # the common case, without per-item compare
        return next((i for i in order if type(items[i]) is float and items[i] == x), None)
    if pattern is None and isinstance(x, str):
        low = x.lower()
        return next((i for i in order if type(items[i]) is str and items[i].lower() == low), None)
    for i in order:
        v = items[i]
        if pattern is not None:
            if isinstance(v, str) and pattern.fullmatch(v):
                return i
        elif v is not None and _same_kind(v, x) and compare(v, x) == 0:
            return i
    return None


def _first_number(x: float, items: list[Value]) -> int | None:
    """Index of the first number equal to `x` (not NaN): `list.index` searches in C, and a
    hit that is not a number (TRUE equals 1.0 in Python) searches on past it."""
    i = -1
    while True:
        try:
            i = items.index(x, i + 1)
        except ValueError:
            return None
        if type(items[i]) is float:
            return i


def approx_position(x: Value, items: list[Value], descending: bool = False) -> int | None:
    """Sorted look-up: the last item <= x (ascending data), or >= x (descending)."""
    found = None
    for i, v in enumerate(items):
        if v is None or not _same_kind(v, x):
            continue
        c = compare(v, x)
        if (c <= 0 and not descending) or (c >= 0 and descending):
            found = i
        else:
            break
    return found


@fn("MATCH", 2, 3, mode="raw")
def match(ctx: Ctx, x: object, arr: object, kind: object = 1.0) -> float:
    target = scalar(x, ctx)
    if isinstance(target, XlError):
        raise Raise(target)
    items = _vector(arr)
    mode = as_number(scalar(kind, ctx)) if kind is not None else 1.0
    pos = exact_position(target, items) if mode == 0 else approx_position(target, items, mode < 0)
    if pos is None:
        raise Raise(NA)
    return float(pos + 1)


def _table_lookup(
    ctx: Ctx, x: object, table: object, index: object, approx: object, by_rows: bool
) -> Value:
    target = scalar(x, ctx)
    if isinstance(target, XlError):
        raise Raise(target)
    i = int(as_number(scalar(index, ctx)))
    if isinstance(table, Rng):  # read the key line only, then the one cell found
        width = table.cols if by_rows else table.rows
        keys = table.column(0) if by_rows else table.row(0)
    else:
        grid = as_grid(table)
        width = len(grid[0]) if by_rows else len(grid)
        keys = (
            [row[0] if row else None for row in grid] if by_rows else list(grid[0]) if grid else []
        )
    if i < 1:
        raise Raise(VALUE)
    if i > width:
        raise Raise(REF)
    sorted_ = approx is None or as_bool(scalar(approx, ctx))
    pos = approx_position(target, keys) if sorted_ else exact_position(target, keys)
    if pos is None:
        raise Raise(NA)
    if isinstance(table, Rng):
        if by_rows:
            return table.value_at(table.r1 + pos, table.c1 + i - 1)
        return table.value_at(table.r1 + i - 1, table.c1 + pos)
    if by_rows:
        row = grid[pos]
        return row[i - 1] if i - 1 < len(row) else None
    return grid[i - 1][pos] if i - 1 < len(grid) else None


@fn("VLOOKUP", 3, 4, mode="raw")
def vlookup(ctx: Ctx, x: object, table: object, col: object, approx: object = None) -> Value:
    return _table_lookup(ctx, x, table, col, approx, True)


@fn("HLOOKUP", 3, 4, mode="raw")
def hlookup(ctx: Ctx, x: object, table: object, row: object, approx: object = None) -> Value:
    return _table_lookup(ctx, x, table, row, approx, False)


def _x_position(target: Value, items: list[Value], mode: int, search: int) -> int | None:
    reverse = search == -1
    if mode == 2:
        return exact_position(target, items, reverse=reverse)
    pos = exact_position(target, items, wildcards=False, reverse=reverse)
    if pos is not None or mode == 0:
        return pos
    best = None
    for i, v in enumerate(items):
        if v is None or not _same_kind(v, target):
            continue
        c = compare(v, target)
        if (mode == -1 and c < 0 and (best is None or compare(v, items[best]) > 0)) or (
            mode == 1 and c > 0 and (best is None or compare(v, items[best]) < 0)
        ):
            best = i
    return best


@fn("XLOOKUP", 3, 6, mode="raw")
def xlookup(
    ctx: Ctx,
    x: object,
    look: object,
    ret: object,
    missing: object = None,
    mode: object = None,
    search: object = None,
) -> Any:
    target = scalar(x, ctx)
    if isinstance(target, XlError):
        raise Raise(target)
    items = _vector(look)
    m = int(as_number(scalar(mode, ctx))) if mode is not None else 0
    s = int(as_number(scalar(search, ctx))) if search is not None else 1
    pos = _x_position(target, items, m, s)
    if pos is None:
        if missing is not None:
            return scalar(missing, ctx)
        raise Raise(NA)
    grid = as_grid(ret)
    vertical = (isinstance(look, Rng) and look.cols == 1) or (is_array(look) and len(look[0]) == 1)  # type: ignore[index]
    if vertical:
        if pos >= len(grid):
            return None
        return grid[pos][0] if len(grid[pos]) == 1 else [list(grid[pos])]
    column = [[row[pos]] for row in grid]
    return column[0][0] if len(column) == 1 else column


@fn("XMATCH", 2, 4, mode="raw")
def xmatch(ctx: Ctx, x: object, look: object, mode: object = None, search: object = None) -> float:
    target = scalar(x, ctx)
    if isinstance(target, XlError):
        raise Raise(target)
    m = int(as_number(scalar(mode, ctx))) if mode is not None else 0
    s = int(as_number(scalar(search, ctx))) if search is not None else 1
    pos = _x_position(target, _vector(look), m, s)
    if pos is None:
        raise Raise(NA)
    return float(pos + 1)


@fn("LOOKUP", 2, 3, mode="raw")
def lookup(ctx: Ctx, x: object, look: object, result: object = None) -> Value:
    target = scalar(x, ctx)
    items = _vector(look)
    pos = approx_position(target, items)
    if pos is None:
        raise Raise(NA)
    out = _vector(result) if result is not None else items
    return out[pos] if pos < len(out) else NA


@fn("INDEX", 2, 3, mode="raw")
def index(ctx: Ctx, arr: object, row: object, col: object = None) -> Any:
    r = int(as_number(scalar(row, ctx))) if row is not None else 0
    c = int(as_number(scalar(col, ctx))) if col is not None else 0
    if isinstance(arr, Rng):
        rows, cols = arr.rows, arr.cols
        if col is None and rows == 1:
            r, c = 1, r
        if r < 0 or c < 0 or r > rows or c > cols:
            raise Raise(REF)
        r1, r2 = (arr.r1, arr.r2) if r == 0 else (arr.r1 + r - 1,) * 2
        c1, c2 = (arr.c1, arr.c2) if c == 0 else (arr.c1 + c - 1,) * 2
        if col is None and rows > 1 and cols > 1 and c == 0:
            c1, c2 = arr.c1, arr.c2
        return Rng(arr.book, arr.sid, r1, c1, r2, c2)
    grid = as_grid(arr)
    if col is None and len(grid) == 1:
        r, c = 1, r
    if r < 1 or r > len(grid) or c < 0 or c > len(grid[0]):
        raise Raise(REF)
    return grid[r - 1][c - 1] if c else [list(grid[r - 1])]


def _first(ref: object, own: int, attr: str) -> float:
    """A reference's first row or column (`attr`: r1 or c1); `own`, the formula's, for none."""
    if ref is None:
        return float(own)
    if not isinstance(ref, Rng):
        raise Raise(VALUE)
    return float(getattr(ref, attr))


@fn("ROW", 0, 1, mode="raw")
def row_(ctx: Ctx, ref: object = None) -> float:
    return _first(ref, ctx.row, "r1")


@fn("COLUMN", 0, 1, mode="raw")
def column_(ctx: Ctx, ref: object = None) -> float:
    return _first(ref, ctx.col, "c1")


@fn("ROWS", 1, mode="raw")
def rows_(ctx: Ctx, ref: object) -> float:
    return float(ref.rows if isinstance(ref, Rng) else len(as_grid(ref)))


@fn("COLUMNS", 1, mode="raw")
def columns_(ctx: Ctx, ref: object) -> float:
    return float(ref.cols if isinstance(ref, Rng) else len(as_grid(ref)[0]))
