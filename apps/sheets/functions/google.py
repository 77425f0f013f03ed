"""Google Sheets' own functions: COUNTUNIQUE, SPLIT, ARRAYFORMULA.

A SPLIT or ARRAYFORMULA typed in a cell spills its array into the cells right of and
below it (`spill.py`); inside another function (COUNTA, SUM, INDEX ...) the whole array
is used.
"""

from __future__ import annotations

from typing import Any

from officegym.apps.sheets.formats import typed_value
from officegym.apps.sheets.functions import fn, scalar, values_of
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import VALUE, Raise, Value, XlError, as_bool, as_text


@fn("COUNTUNIQUE", 1, None, mode="raw")
def countunique(ctx: Ctx, *args: object) -> float:
    """How many distinct values the arguments hold, blanks left out. As in Sheets, text
    is compared case-sensitively and the text "1" differs from the number 1."""
    seen: set[tuple[str, Any]] = set()
    for a in args:
        for v in values_of(a):
            if v is None or v == "":
                continue
            if isinstance(v, XlError):
                raise Raise(v)
            kind = "b" if isinstance(v, bool) else "s" if isinstance(v, str) else "n"
            seen.add((kind, v))
    return float(len(seen))


@fn("SPLIT", 2, 4, mode="raw")
def split(
    ctx: Ctx, text: object, delimiter: object, each: object = None, drop_empty: object = None
) -> list[list[Value]]:
    """SPLIT(text, delimiter, [split_by_each], [remove_empty_text]): the pieces as one
    row. By default every character of `delimiter` splits and empty pieces are dropped;
    a piece that reads as a number, date or logical becomes one (as typed in a cell)."""
    whole, delim = scalar(text, ctx), scalar(delimiter, ctx)
    for v in (whole, delim):
        if isinstance(v, XlError):
            raise Raise(v)
    s, d = as_text(whole), as_text(delim)
    if d == "":
        raise Raise(VALUE)
    by_each = True if each is None else as_bool(scalar(each, ctx))
    drop = True if drop_empty is None else as_bool(scalar(drop_empty, ctx))
    if by_each:
        for ch in d[1:]:
            s = s.replace(ch, d[0])
        d = d[0]
    pieces = [p for p in s.split(d) if p or not drop]
    if not pieces:
        raise Raise(VALUE)
    return [[_typed(p) for p in pieces]]


def _typed(piece: str) -> Value:
    value = typed_value(piece)[0] if piece.strip() else None
    return piece if value is None else value


@fn("ARRAYFORMULA", 1, mode="raw")
def arrayformula(ctx: Ctx, value: object) -> object:
    """ARRAYFORMULA(expression): the expression's value, ranges and arrays kept whole.
    Operators and scalar functions here already apply element by element to ranges."""
    return value
