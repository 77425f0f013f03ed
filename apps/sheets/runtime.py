"""What a formula sees while it runs: the evaluation context (`Ctx`: the workbook,
the formula's sheet and cell, today's date) and references (`Rng`), read sparsely so
that ``SUM(A:A)`` costs what the column holds, not a million cells."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import repeat
from typing import Any, Protocol

from officegym.apps.sheets import budget
from officegym.apps.sheets.columns import Values
from officegym.apps.sheets.parse import RefT
from officegym.apps.sheets.refs import Rect
from officegym.apps.sheets.values import NA, REF, Raise, Value, XlError

__all__ = ["Ctx", "Grid", "Rng", "broadcast", "is_array", "shape"]

Array = list[list[Value]]


class Grid(Protocol):
    """What evaluation needs of a workbook (`engine.Book` is one)."""

    def value(self, sid: int, row: int, col: int) -> Value: ...
    def values_of(self, sid: int) -> dict[tuple[int, int], Value]: ...
    def extent(self, sid: int) -> tuple[int, int]: ...
    def sheet_id(self, name: str) -> int | None: ...
    def named(self, name: str) -> tuple[int, tuple[int, int, int, int]] | None: ...

    subtotals: dict[int, dict[tuple[int, int], None]]  # sheet -> cells calling SUBTOTAL


def is_array(v: Any) -> bool:
    return type(v) is list


def shape(v: Any) -> tuple[int, int]:
    return (len(v), len(v[0]) if v else 0)


class Rng(Rect):
    """A rectangle of one sheet, read on demand: dense reads (`cells`, `matrix`) are
    clipped to the sheet's used extent and checked against the evaluation budget first;
    `values` and `stored` walk the sparse store when that is smaller."""

    __slots__ = ("book", "c1", "c2", "r1", "r2", "sid")

    def __init__(self, book: Grid, sid: int, r1: int, c1: int, r2: int, c2: int) -> None:
        self.book, self.sid = book, sid
        self.r1, self.c1, self.r2, self.c2 = r1, c1, r2, c2

    valid = True

    def value_at(self, row: int, col: int) -> Value:
        return self.book.value(self.sid, row, col)

    def clipped(self) -> tuple[int, int]:
        """The last row and column worth reading (the sheet's used extent)."""
        max_r, max_c = self.book.extent(self.sid)
        return min(self.r2, max(max_r, self.r1)), min(self.c2, max(max_c, self.c1))

    def values(self) -> Iterator[Value]:
        """The non-blank values, row by row (sparse: blank cells are skipped)."""
        vals = self.book.values_of(self.sid)
        r2, c2 = self.clipped()
        if self.c1 == c2 and r2 - self.r1 < 2 * len(vals):
            get, c = vals.get, c2
            found = [get((r, c)) for r in range(self.r1, r2 + 1)]
            yield from (v for v in found if v is not None)
            return
        if (r2 - self.r1 + 1) * (c2 - self.c1 + 1) <= 2 * len(vals):
            for r in range(self.r1, r2 + 1):
                for c in range(self.c1, c2 + 1):
                    v = vals.get((r, c))
                    if v is not None:
                        yield v
            return
        inside = [
            (k, v)
            for k, v in vals.items()
            if self.r1 <= k[0] <= r2 and self.c1 <= k[1] <= c2 and v is not None
        ]
        inside.sort(key=lambda kv: kv[0])
        yield from (v for _, v in inside)

    def cells(self) -> list[Value]:
        """Every value of the range (blanks as None), row by row, clipped."""
        vals = self.book.values_of(self.sid)
        r2, c2 = self.clipped()
        budget.cells((r2 - self.r1 + 1) * (c2 - self.c1 + 1), "a range")
        if self.c1 == c2:
            return self._column_of(vals, r2, c2)
        return [v for r in range(self.r1, r2 + 1) for v in _row(vals, r, self.c1, c2)]

    def numbers(self) -> list[float]:
        """The numbers of the range (text, logicals and blanks skipped); an error in it
        is raised."""
        dense = min(4 * len(self.book.values_of(self.sid)) + 64, budget.current().cells)
        got = self.cells() if self.size <= dense else list(self.values())
        odd = self.odd(len(got)) if self.c1 == self.c2 and self.size <= dense else None
        if odd is not None:
            return _without(got, odd)
        nums = [v for v in got if type(v) is float]
        if len(nums) != len(got):
            for v in got:
                if type(v) is XlError:
                    raise Raise(v)
        return nums

    def matrix(self) -> Array:
        """The values as rows of a dense array, clipped to the sheet's used extent."""
        vals = self.book.values_of(self.sid)
        r2, c2 = self.clipped()
        budget.cells((r2 - self.r1 + 1) * (c2 - self.c1 + 1), "a range")
        return [_row(vals, r, self.c1, c2) for r in range(self.r1, r2 + 1)]

    def column(self, index: int) -> list[Value]:
        """Values of the range's `index`-th column (0-based), clipped."""
        vals = self.book.values_of(self.sid)
        r2, _ = self.clipped()
        budget.cells(r2 - self.r1 + 1, "a column")
        return self._column_of(vals, r2, self.c1 + index)

    def _column_of(self, vals: dict[tuple[int, int], Value], r2: int, c: int) -> list[Value]:
        """Rows r1..r2 of column c: a slice of the column vector the sheet's store keeps
        in step with every write (`columns.Values`), or look-ups in a plain dict."""
        if type(vals) is Values:
            return vals.column(self.r1, r2, c)
        return _column(vals, self.r1, r2, c)

    def odd(self, count: int, index: int = 0) -> list[int] | None:
        """Offsets, among the first `count` rows of the range's `index`-th column, of the
        values that are not numbers, as the sheet's column vectors know them after a read;
        None when they cannot tell or there are more than `ODD` (then walk the values)."""
        vals = self.book.values_of(self.sid)
        if type(vals) is not Values:
            return None
        r1 = self.r1
        found = vals.odd(r1, r1 + count - 1, self.c1 + index, ODD)
        return None if found is None else [r - r1 for r in found]

    def row(self, index: int) -> list[Value]:
        vals = self.book.values_of(self.sid)
        _, c2 = self.clipped()
        budget.cells(c2 - self.c1 + 1, "a row")
        return _row(vals, self.r1 + index, self.c1, c2)

    def sparse(self) -> bool:
        """Whether the range (clipped) is far larger than what its sheet stores, so that
        walking the stored cells (`stored`) is the cheaper read."""
        r2, c2 = self.clipped()
        return (r2 - self.r1 + 1) * (c2 - self.c1 + 1) > 4 * len(self.book.values_of(self.sid)) + 64

    def stored(self) -> Iterator[tuple[int, int, Value]]:
        """(row, col, value) of the range's non-blank cells in any order, walking whichever
        is smaller: the sparse store or the clipped rectangle."""
        vals = self.book.values_of(self.sid)
        r2, c2 = self.clipped()
        if (r2 - self.r1 + 1) * (c2 - self.c1 + 1) <= len(vals):
            for r in range(self.r1, r2 + 1):
                for c in range(self.c1, c2 + 1):
                    v = vals.get((r, c))
                    if v is not None:
                        yield r, c, v
            return
        r1, c1 = self.r1, self.c1
        for (r, c), v in list(vals.items()):
            if r1 <= r <= r2 and c1 <= c <= c2 and v is not None:
                yield r, c, v


ODD = 64  # most non-numbers in a column read through `Rng.odd`


def _without(got: list[Value], odd: list[int]) -> list[float]:
    """`got` less the values at offsets `odd` (ascending): its numbers when those are its
    only non-numbers; the first error among them is raised."""
    for i in odd:
        if type(got[i]) is XlError:
            raise Raise(got[i])  # type: ignore[arg-type]
    for i in reversed(odd):
        del got[i]
    return got  # type: ignore[return-value]


def _column(vals: dict[tuple[int, int], Value], r1: int, r2: int, c: int) -> list[Value]:
    """Values of rows r1..r2 of column c (blanks as None); the look-ups run in C, a range
    function over a thousand rows being the hot path of recalculation."""
    return list(map(vals.get, zip(range(r1, r2 + 1), repeat(c))))


def _row(vals: dict[tuple[int, int], Value], r: int, c1: int, c2: int) -> list[Value]:
    return list(map(vals.get, zip(repeat(r), range(c1, c2 + 1))))


class Ctx:
    """Evaluation context: the workbook, the formula's sheet and cell, today's serial."""

    __slots__ = ("book", "col", "row", "sid", "today")

    def __init__(self, book: Grid, sid: int, row: int, col: int, today: float) -> None:
        self.book, self.sid, self.row, self.col, self.today = book, sid, row, col, today

    def sheet_id(self, name: str) -> int | None:
        return self.book.sheet_id(name)

    def resolve(self, ref: RefT) -> Rng | XlError:
        """The range a reference names from this cell; #REF! off the grid or to a missing
        sheet, #NAME? for an unknown defined name."""
        if ref.name is not None:
            found = self.book.named(ref.name)
            if found is None:
                return XlError("#NAME?")
            sid, (r1, c1, r2, c2) = found
            return Rng(self.book, sid, r1, c1, r2, c2)
        area = ref.area(self.row, self.col)
        sid = self.sid if ref.sheet is None else self.book.sheet_id(ref.sheet)
        if area is None or sid is None:
            return REF
        return Rng(self.book, sid, *area)


def broadcast(fn: Callable[[Value, Value], Value], a: Any, b: Any) -> Array:
    """`fn` element by element over two arrays (or an array and a scalar), Excel-style:
    a single row or column stretches; cells outside a smaller array are #N/A."""
    a = a if is_array(a) else [[a]]
    b = b if is_array(b) else [[b]]
    rows = max(len(a), len(b))
    cols = max(len(a[0]) if a else 0, len(b[0]) if b else 0)
    budget.cells(rows * cols, "an array operation")

    def pick(m: Array, i: int, j: int) -> Value:
        mi = 0 if len(m) == 1 else i
        mj = 0 if len(m[0]) == 1 else j
        return m[mi][mj] if mi < len(m) and mj < len(m[0]) else NA

    every = max(1, 1024 // max(cols, 1))  # rows between checks of the time left
    out = []
    for i in range(rows):
        if i % every == 0:
            budget.tick()
        out.append([fn(pick(a, i, j), pick(b, i, j)) for j in range(cols)])
    return out
