"""References computed while a formula runs: INDIRECT (a reference written as text) and
OFFSET (a reference moved and resized), and SUBTOTAL (an aggregate that skips the
subtotals inside its ranges).

INDIRECT and OFFSET give a `Rng`, so ``SUM(OFFSET(A1,1,0,3))`` adds three cells. What
they read is known only when they run, so the compiler marks formulas calling them
volatile and the engine re-evaluates those after every recalculation, as Excel does
(`compiler.VOLATILE`).
"""

from __future__ import annotations

import re
from typing import Any

from officegym.apps.sheets.functions import FUNCTIONS, fn, scalar
from officegym.apps.sheets.parse import make_ref
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, a1
from officegym.apps.sheets.runtime import Ctx, Rng
from officegym.apps.sheets.values import REF, VALUE, Raise, XlError, as_bool, as_number, as_text
from officegym.errors import Invalid

# R1C1 addresses for INDIRECT(text, FALSE): R2C3, R[-1]C, RC[2], with an optional range.
_R1C1_PART = r"R(?:\[(-?\d+)\]|(\d+))?C(?:\[(-?\d+)\]|(\d+))?"
_R1C1 = re.compile(rf"^{_R1C1_PART}(?::{_R1C1_PART})?$", re.IGNORECASE)


@fn("INDIRECT", 1, 2, mode="raw")
def indirect(ctx: Ctx, ref_text: object, a1: object = None) -> Rng:
    """The reference written in `ref_text` (``B3``, ``Data!A1:C9``, ``'My sheet'!A:A``,
    a defined name; R1C1 when `a1` is FALSE); #REF! when the text names no cell."""
    text = scalar(ref_text, ctx)
    if isinstance(text, XlError):
        raise Raise(text)
    text = as_text(text).strip()
    flag = scalar(a1, ctx)
    if flag is not None and not as_bool(flag):
        text = _from_r1c1(text, ctx)
    if not text:
        raise Raise(REF)
    try:
        ref = make_ref(text, ctx.row, ctx.col)
    except Invalid:
        raise Raise(REF) from None
    found = ctx.resolve(ref)
    if isinstance(found, XlError):
        raise Raise(REF)
    return found


def _from_r1c1(text: str, ctx: Ctx) -> str:
    """An R1C1 address as the A1 address it names from the formula's cell."""
    sheet, bang, body = text.rpartition("!")
    m = _R1C1.match(body)
    if m is None:
        raise Raise(REF)
    g = m.groups()
    corners = [_corner_a1(g[0:4], ctx)] + ([_corner_a1(g[4:8], ctx)] if body.count(":") else [])
    return sheet + bang + ":".join(corners)


def _corner_a1(parts: tuple[str | None, ...], ctx: Ctx) -> str:
    rel_r, abs_r, rel_c, abs_c = parts
    row = int(abs_r) if abs_r else ctx.row + int(rel_r or 0)
    col = int(abs_c) if abs_c else ctx.col + int(rel_c or 0)
    if not (1 <= row <= MAX_ROWS and 1 <= col <= MAX_COLS):
        raise Raise(REF)
    return a1(row, col)


@fn("OFFSET", 3, 5, mode="raw")
def offset(
    ctx: Ctx, ref: object, rows: object, cols: object, height: object = None, width: object = None
) -> Rng:
    """The range `rows` down and `cols` right of `ref`'s top-left cell, `height` by `width`
    (by default `ref`'s size); #VALUE! when `ref` is no reference, #REF! off the grid."""
    if isinstance(ref, XlError):
        raise Raise(ref)
    if not isinstance(ref, Rng):
        raise Raise(VALUE)
    dr, dc = _whole(rows, ctx), _whole(cols, ctx)
    h = ref.rows if height is None else _whole(height, ctx)
    w = ref.cols if width is None else _whole(width, ctx)
    r1, c1 = ref.r1 + dr, ref.c1 + dc
    if h < 1 or w < 1 or r1 < 1 or c1 < 1 or r1 + h - 1 > MAX_ROWS or c1 + w - 1 > MAX_COLS:
        raise Raise(REF)
    return Rng(ref.book, ref.sid, r1, c1, r1 + h - 1, c1 + w - 1)


def _whole(v: object, ctx: Ctx) -> int:
    x = scalar(v, ctx)
    if isinstance(x, XlError):
        raise Raise(x)
    return int(as_number(x))


# function number -> the aggregate it applies (101-111: the same, skipping hidden rows)
_SUBTOTAL = {
    1: "AVERAGE",
    2: "COUNT",
    3: "COUNTA",
    4: "MAX",
    5: "MIN",
    6: "PRODUCT",
    7: "STDEV",
    8: "STDEVP",
    9: "SUM",
    10: "VAR",
    11: "VARP",
}


@fn("SUBTOTAL", 2, None, mode="raw")
def subtotal(ctx: Ctx, number: object, *refs: object) -> Any:
    """SUBTOTAL(function_num, ref1, ...): the aggregate numbered 1-11 (AVERAGE, COUNT,
    COUNTA, MAX, MIN, PRODUCT, STDEV, STDEVP, SUM, VAR, VARP) over the ranges, leaving
    out cells whose own formula calls SUBTOTAL (no double counting). 101-111 also skip
    hidden rows; this clone hides no rows, so they equal 1-11."""
    x = scalar(number, ctx)
    if isinstance(x, XlError):
        raise Raise(x)
    code = int(as_number(x))
    name = _SUBTOTAL.get(code - 100 if code > 100 else code)
    if name is None:
        raise Raise(VALUE)
    pieces: list[Rng] = []
    for ref in refs:
        if isinstance(ref, XlError):
            raise Raise(ref)
        if not isinstance(ref, Rng):
            raise Raise(VALUE)
        pieces.extend(_without_subtotals(ref, ctx))
    return FUNCTIONS[name].impl(ctx, *pieces)


def _without_subtotals(rng: Rng, ctx: Ctx) -> list[Rng]:
    """`rng` cut into rectangles that leave out the cells holding a SUBTOTAL formula."""
    skip: dict[int, list[int]] = {}
    for r, c in ctx.book.subtotals.get(rng.sid, {}):
        if rng.r1 <= r <= rng.r2 and rng.c1 <= c <= rng.c2:
            skip.setdefault(r, []).append(c)
    if not skip:
        return [rng]
    out: list[Rng] = []
    top = rng.r1
    for r in sorted(skip):
        if top < r:
            out.append(Rng(rng.book, rng.sid, top, rng.c1, r - 1, rng.c2))
        left = rng.c1
        for c in sorted(skip[r]):
            if left < c:
                out.append(Rng(rng.book, rng.sid, r, left, r, c - 1))
            left = c + 1
        if left <= rng.c2:
            out.append(Rng(rng.book, rng.sid, r, left, r, rng.c2))
        top = r + 1
    if top <= rng.r2:
        out.append(Rng(rng.book, rng.sid, top, rng.c1, rng.r2, rng.c2))
    return out
