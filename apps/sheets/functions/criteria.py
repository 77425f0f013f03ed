"""Criteria of COUNTIF, SUMIF, AVERAGEIF and their -IFS forms, as Excel reads them:
``">=100"``, ``"<>Closed"``, ``"East"`` (any case), ``"Acme*"`` (wildcards * ? and ~),
``""`` (blank cells), or a plain number or logical."""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Sequence
from itertools import compress, repeat

from officegym.apps.sheets import budget
from officegym.apps.sheets.columns import Values
from officegym.apps.sheets.runtime import Rng, is_array
from officegym.apps.sheets.values import (
    COMPARISONS,
    VALUE,
    Raise,
    Value,
    XlError,
    compare,
    parse_number,
)

__all__ = ["column_mask", "count_matching", "matcher", "matching_positions"]

_OPS = ("<=", ">=", "<>", "<", ">", "=")


def wildcard_pattern(text: str) -> re.Pattern[str] | None:
    if not any(ch in text for ch in "*?~"):
        return None
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "~" and i + 1 < len(text):
            out.append(re.escape(text[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL)


@functools.lru_cache(maxsize=1024)
def _split(criterion: str) -> tuple[str, str, float | None]:
    """A text criterion's operator ('' for none), operand, and the operand as a number."""
    op = next((o for o in _OPS if criterion.startswith(o)), "")
    operand = criterion[len(op) :]
    return op, operand, parse_number(operand) if operand else None


@functools.lru_cache(maxsize=1024)
def _text_matcher(criterion: str) -> Callable[[Value], bool]:
    op, operand, number = _split(criterion)
    if operand == "" and op in ("", "="):
        return lambda v: v is None or v == ""
    if operand == "" and op == "<>":
        return lambda v: v is not None and v != ""
    if number is None and operand.upper() in ("TRUE", "FALSE"):
        flag = operand.upper() == "TRUE"
        return _compare_with(op or "=", flag, lambda v: isinstance(v, bool))
    if number is not None:
        return _numeric(op or "=", number)
    pattern = wildcard_pattern(operand) if op in ("", "=", "<>") else None
    if pattern is not None:
        hit = lambda v: isinstance(v, str) and pattern.fullmatch(v) is not None  # noqa: E731
        return (lambda v: not hit(v)) if op == "<>" else hit
    if op in ("", "="):
        lowered = operand.lower()
        return lambda v: type(v) is str and v.lower() == lowered
    return _compare_with(op, operand, lambda v: isinstance(v, str))


_NUM_OPS = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}


def _numeric(op: str, x: float) -> Callable[[Value], bool]:
    """A numeric criterion: only numbers compare ('<>5' also matches text and blanks)."""
    test = _NUM_OPS[op]
    if op == "<>":
        return lambda v: type(v) is not float or v != x
    return lambda v: type(v) is float and test(v, x)


def _compare_with(
    op: str, target: Value, same_kind: Callable[[Value], bool]
) -> Callable[[Value], bool]:
    test = COMPARISONS[op]
    if op == "<>":
        return lambda v: not same_kind(v) or compare(v, target) != 0
    return lambda v: same_kind(v) and test(compare(v, target))


def _on_numbers(criterion: Value) -> tuple[Callable[[float, float], bool], float] | None:
    """The comparison and operand a numeric criterion applies to a number (``">50"``,
    ``"<>3"``, 7.0), for columns known to hold only numbers; None for other criteria."""
    if type(criterion) is float or type(criterion) is int:
        return operator.eq, float(criterion)
    if type(criterion) is not str:
        return None
    op, _, number = _split(criterion)
    return None if number is None else (_NUM_OPS[op or "="], number)


def matcher(criterion: Value) -> Callable[[Value], bool]:
    """A predicate over cell values for one criterion."""
    if isinstance(criterion, XlError):
        raise Raise(criterion)
    if criterion is None:
        return lambda v: v is None or v == "" or v == 0
    if isinstance(criterion, bool):
        return lambda v: isinstance(v, bool) and v == criterion
    if isinstance(criterion, float | int):
        x = float(criterion)
        return lambda v: isinstance(v, float | int) and not isinstance(v, bool) and v == x
    return _text_matcher(criterion)


def cells(arg: object) -> list[list[Value]]:
    """A criteria range's (or array's) values as rows, unclipped shape kept small."""
    if isinstance(arg, Rng):
        return arg.matrix()
    if is_array(arg):
        return arg  # type: ignore[return-value]
    raise Raise(VALUE)


def _matches(
    grid: list[list[Value]], test: Callable[[Value], bool], rows: int, cols: int, blank_ok: bool
) -> set[tuple[int, int]]:
    if blank_ok:  # every blank of the whole shape matches: bounded by the budget
        budget.cells(rows * cols, "a criteria range")
    found = set()
    for i in range(rows if blank_ok else min(rows, len(grid))):
        row = grid[i] if i < len(grid) else []
        for j in range(cols):
            v = row[j] if j < len(row) else None
            if test(v):
                found.add((i, j))
    return found


def _hits(rng: Rng, criterion: Value, test: Callable[[Value], bool]) -> list[bool]:
    """`test` over the range's (one) column, remembered by the sheet's store until the
    column changes (`Values.remembered`): a criterion over a column no edit touched is
    not tested again."""
    column = rng.column(0)
    vals = rng.book.values_of(rng.sid)
    if type(vals) is not Values or len(column) < 64:
        return _tested(rng, column, criterion, test)
    key = (rng.r1, len(column), type(criterion), criterion)
    return vals.remembered(rng.c1, key, lambda: _tested(rng, column, criterion, test))


def _tested(
    rng: Rng, column: list[Value], criterion: Value, test: Callable[[Value], bool]
) -> list[bool]:
    """`test` over `column` (the range's). A numeric criterion over a column of numbers
    but a few is the comparison alone, in C, the few tested one by one."""
    fast = _on_numbers(criterion)
    odd = rng.odd(len(column)) if fast is not None else None
    if fast is None or odd is None:
        return list(map(test, column))
    kept = [column[i] for i in odd]
    for i in odd:
        column[i] = 0.0
    hits = list(map(fast[0], column, repeat(fast[1])))
    for i, v in zip(odd, kept, strict=True):
        hits[i] = test(v)
    return hits


def _column_mask(pairs: Sequence[tuple[Rng, Value]]) -> list[bool]:
    """Whether each row of single-column ranges matches every pair (their shapes equal)."""
    rows = pairs[0][0].rows
    keep: list[bool] | None = None
    for rng, criterion in pairs:
        if rng.rows != rows:
            raise Raise(VALUE)
        test = matcher(criterion)
        hits = _hits(rng, criterion, test)
        if len(hits) < rows:
            hits.extend([test(None)] * (rows - len(hits)))
        keep = hits if keep is None else [a and b for a, b in zip(keep, hits, strict=True)]
    return keep or []


def column_mask(pairs: Sequence[tuple[object, Value]]) -> list[bool] | None:
    """`matching_positions` as one flag per row when every range is a single column
    (None otherwise): for the -IF functions to pick their values by `itertools.compress`."""
    for rng, _ in pairs:
        if isinstance(rng, XlError):
            raise Raise(rng)
    if all(isinstance(r, Rng) and r.cols == 1 for r, _ in pairs):
        return _column_mask(pairs)  # type: ignore[arg-type]
    return None


def matching_positions(
    pairs: Sequence[tuple[object, Value]],
) -> tuple[list[tuple[int, int]], int, int]:
    """Positions (row, col offsets) where every (range, criterion) pair matches, and the
    shape of the first range; ranges of different shapes are #VALUE!."""
    for rng, _ in pairs:
        if isinstance(rng, XlError):
            raise Raise(rng)
    if all(isinstance(r, Rng) and r.cols == 1 for r, _ in pairs):
        keep = _column_mask(pairs)  # type: ignore[arg-type]
        return list(zip(compress(range(len(keep)), keep), repeat(0))), len(keep), 1
    first = pairs[0][0]
    if isinstance(first, Rng):
        rows, cols = first.rows, first.cols
    else:
        grid = cells(first)
        rows, cols = len(grid), len(grid[0]) if grid else 0
    hits: set[tuple[int, int]] | None = None
    for rng, criterion in pairs:
        if isinstance(rng, Rng) and (rng.rows, rng.cols) != (rows, cols):
            raise Raise(VALUE)
        test = matcher(criterion)
        blank_ok = test(None)
        if isinstance(rng, Rng) and rng.cols == 1:
            column = rng.column(0)
            found = {(i, 0) for i, v in enumerate(column) if test(v)}
            if blank_ok:
                found.update((i, 0) for i in range(len(column), rows))
        else:
            found = _matches(cells(rng), test, rows, cols, blank_ok)
        hits = found if hits is None else hits & found
    return sorted(hits or ()), rows, cols


def count_matching(pairs: Sequence[tuple[object, Value]]) -> int:
    """How many positions match every (range, criterion) pair: `matching_positions`
    counted, walking only the stored cells when every range is far larger than what its
    sheet stores (``COUNTIF(A:Z,"<>x")`` counts the blanks by arithmetic)."""
    ranges = [r for r, _ in pairs if isinstance(r, Rng)]
    if len(ranges) != len(pairs) or not all(r.sparse() for r in ranges):
        keep = column_mask(pairs)
        return len(matching_positions(pairs)[0]) if keep is None else len(list(filter(None, keep)))
    shape = (ranges[0].rows, ranges[0].cols)
    if any((r.rows, r.cols) != shape for r in ranges):
        raise Raise(VALUE)
    tests = [matcher(c) for _, c in pairs]
    stored = {(r - rng.r1, c - rng.c1) for rng in ranges for r, c, _ in rng.stored()}
    hits = sum(
        all(t(rng.value_at(rng.r1 + i, rng.c1 + j)) for rng, t in zip(ranges, tests, strict=True))
        for i, j in stored
    )
    blanks = shape[0] * shape[1] - len(stored)
    return hits + (blanks if all(t(None) for t in tests) else 0)
