"""Google Sheets' operators as functions (ADD, MINUS, MULTIPLY, DIVIDE, POW, EQ, NE,
GT, GTE, LT, LTE, UMINUS, UPLUS, UNARY_PERCENT), ISBETWEEN, the TO_* conversions
(the value itself: a format is the cell's business), ADDRESS, and the database
functions DSUM, DAVERAGE, DCOUNT, DCOUNTA, DGET, DMAX, DMIN, DPRODUCT."""

from __future__ import annotations

import math
import statistics

from officegym.apps.sheets.functions import fn, scalar
from officegym.apps.sheets.functions.criteria import matcher
from officegym.apps.sheets.functions.lookup import as_grid
from officegym.apps.sheets.refs import col_letters, quote_sheet
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import (
    COMPARISONS,
    DIV0,
    NUM,
    VALUE,
    Raise,
    Value,
    XlError,
    as_bool,
    as_number,
    as_text,
    compare,
)


def _num(v: Value) -> float:
    return as_number(v) if v is not None else 0.0


fn("ADD", 2)(lambda a, b: _num(a) + _num(b))
fn("MINUS", 2)(lambda a, b: _num(a) - _num(b))
fn("MULTIPLY", 2)(lambda a, b: _num(a) * _num(b))
fn("UMINUS", 1)(lambda a: -_num(a))
fn("UPLUS", 1)(lambda a: a)
fn("UNARY_PERCENT", 1)(lambda a: _num(a) / 100)
_OPERATORS = {"EQ": "=", "NE": "<>", "GT": ">", "GTE": ">=", "LT": "<", "LTE": "<="}
for _name, _op in _OPERATORS.items():
    fn(_name, 2)(lambda a, b, op=COMPARISONS[_op]: op(compare(a, b)))


@fn("DIVIDE", 2)
def divide(a: Value, b: Value) -> float:
    d = _num(b)
    if d == 0:
        raise Raise(DIV0)
    return _num(a) / d


@fn("POW", 2)
def pow_(a: Value, b: Value) -> float:
    x, y = _num(a), _num(b)
    if x == 0 and y <= 0:
        raise Raise(DIV0 if y < 0 else NUM)
    out = x**y
    if isinstance(out, complex):
        raise Raise(NUM)
    return out


@fn("ISBETWEEN", 3, 5)
def isbetween(
    v: Value, low: Value, high: Value, low_in: Value = True, high_in: Value = True
) -> bool:
    lo, hi = compare(v, low), compare(v, high)
    above = lo >= 0 if as_bool(low_in if low_in is not None else True) else lo > 0
    below = hi <= 0 if as_bool(high_in if high_in is not None else True) else hi < 0
    return above and below


for _name in ("TO_PERCENT", "TO_DOLLARS", "TO_PURE_NUMBER"):
    fn(_name, 1)(lambda v: v if not isinstance(v, str) else as_number(v))


@fn("TO_DATE", 1)
def to_date(v: Value) -> Value:
    return v if not isinstance(v, float | int) or isinstance(v, bool) else float(v)


@fn("ADDRESS", 2, 5)
def address(
    row: Value, col: Value, kind: Value = 1.0, a1: Value = True, sheet: Value = None
) -> str:
    """The text of a reference: kind 1 $A$1, 2 A$1, 3 $A1, 4 A1; R1C1 when a1 is FALSE."""
    r, c = math.trunc(as_number(row)), math.trunc(as_number(col))
    k = math.trunc(as_number(kind)) if kind is not None else 1
    if r < 1 or c < 1 or k not in (1, 2, 3, 4):
        raise Raise(VALUE)
    if a1 is None or as_bool(a1):
        ref = ("$" if k in (1, 3) else "") + col_letters(c) + ("$" if k in (1, 2) else "") + str(r)
    else:
        ref = (f"R{r}" if k in (1, 2) else f"R[{r}]") + (f"C{c}" if k in (1, 3) else f"C[{c}]")
    if sheet is None or sheet == "":
        return ref
    return f"{quote_sheet(as_text(sheet))}!{ref}"


def _database(ctx: Ctx, db: object, field: object, criteria: object) -> list[Value]:
    """The `field` column's values of the database rows matching the criteria table
    (headers in the first row; one row's conditions all hold, any row may match)."""
    table, crit = as_grid(db), as_grid(criteria)
    if len(table) < 1 or len(crit) < 2:
        raise Raise(VALUE)
    heads = [as_text(h).strip().lower() for h in table[0]]
    f = scalar(field, ctx)
    if isinstance(f, XlError):
        raise Raise(f)
    if isinstance(f, str):
        if f.strip().lower() not in heads:
            raise Raise(VALUE)
        col = heads.index(f.strip().lower())
    else:
        col = math.trunc(as_number(f)) - 1
        if not 0 <= col < len(heads):
            raise Raise(VALUE)
    tests: list[list[tuple[int, object]]] = []
    for row in crit[1:]:
        conds = []
        for name, c in zip(crit[0], row, strict=False):
            if c is None or c == "":
                continue
            key = as_text(name).strip().lower()
            if key not in heads:
                raise Raise(VALUE)
            conds.append((heads.index(key), matcher(c)))
        tests.append(conds)
    return [
        rec[col]
        for rec in table[1:]
        if any(all(t(rec[i]) for i, t in conds) for conds in tests)  # type: ignore[operator]
    ]


def _nums(vals: list[Value]) -> list[float]:
    return [float(v) for v in vals if isinstance(v, float | int) and not isinstance(v, bool)]


@fn("DSUM", 3, mode="raw")
def dsum(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return math.fsum(_nums(_database(ctx, db, field, criteria)))


@fn("DAVERAGE", 3, mode="raw")
def daverage(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    xs = _nums(_database(ctx, db, field, criteria))
    if not xs:
        raise Raise(DIV0)
    return math.fsum(xs) / len(xs)


@fn("DCOUNT", 3, mode="raw")
def dcount(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return float(len(_nums(_database(ctx, db, field, criteria))))


@fn("DCOUNTA", 3, mode="raw")
def dcounta(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return float(sum(1 for v in _database(ctx, db, field, criteria) if v not in (None, "")))


@fn("DMAX", 3, mode="raw")
def dmax(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return max(_nums(_database(ctx, db, field, criteria)), default=0.0)


@fn("DMIN", 3, mode="raw")
def dmin(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return min(_nums(_database(ctx, db, field, criteria)), default=0.0)


@fn("DPRODUCT", 3, mode="raw")
def dproduct(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    return math.prod(_nums(_database(ctx, db, field, criteria)))


@fn("DSTDEV", 3, mode="raw")
def dstdev(ctx: Ctx, db: object, field: object, criteria: object) -> float:
    xs = _nums(_database(ctx, db, field, criteria))
    if len(xs) < 2:
        raise Raise(DIV0)
    return statistics.stdev(xs)


@fn("DGET", 3, mode="raw")
def dget(ctx: Ctx, db: object, field: object, criteria: object) -> Value:
    found = _database(ctx, db, field, criteria)
    if not found:
        raise Raise(VALUE)
    if len(found) > 1:
        raise Raise(NUM)
    return found[0]
