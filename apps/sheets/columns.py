"""A sheet's stored data (`SheetData`) and its values with column vectors kept in step:
`Values` is the sparse store (non-blank values by (row, col)) that also remembers, per
column read by a range, a dense list of that column's values and the rows of it that are
not numbers, both updated on every write. A range read is then a list slice instead of a
thousand dictionary look-ups, and "which of its values are not numbers" a binary search,
across recalculation passes and edits."""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any

from officegym.apps.sheets.values import Value

if TYPE_CHECKING:
    from officegym.apps.sheets.engine import CellState

__all__ = ["SheetData", "Values"]

Place = tuple[int, int]
_MISSING: Any = object()
_FLOOR = 1 << 16  # cached entries always allowed per sheet, however few cells it stores
_KEPT = 256  # lists `remembered` per sheet (then they start over)
_GROW = threading.Lock()  # held while a vector grows (rare: reads mostly slice)


class Values(dict[Place, Value]):
    """Non-blank values by (row, col), plus `column(r1, r2, c)`: rows r1..r2 of column c
    read from a dense vector that every write keeps equal to the dictionary, and
    `odd(r1, r2, c)`: those of the rows that do not hold numbers. A vector covers rows
    0..len-1 (row 0 unused) and grows as reads reach further; writes past its end need
    no update. `_odd[c]` is the sorted list of the rows 1..len-1 of vector c whose value
    is not a float. Rare bulk changes (`update`, `setdefault`, `popitem`) drop them all."""

    __slots__ = ("_cols", "_kept", "_odd", "_size", "_versions")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cols: dict[int, list[Value]] = {}
        self._odd: dict[int, list[int]] = {}
        self._size = 0  # entries held by the vectors
        self._kept: dict[tuple[int, Any], tuple[int, list[Any]]] = {}  # see `remembered`
        self._versions: dict[int, int] = {}  # column -> writes since `_kept` was empty

    def __reduce__(self) -> tuple[type[Values], tuple[dict[Place, Value]]]:
        return (Values, (dict(self),))  # the vectors are rebuilt on demand

    def __setitem__(self, key: Place, value: Value) -> None:
        dict.__setitem__(self, key, value)
        if self._kept:
            self._bump(key[1])
        col = self._cols.get(key[1])
        if col is not None and 0 < key[0] < len(col):
            self._put(col, key, value)

    def __delitem__(self, key: Place) -> None:
        dict.__delitem__(self, key)
        self._blank(key)

    def pop(self, key: Place, default: Any = _MISSING) -> Any:
        found = dict.pop(self, key, _MISSING)
        if found is _MISSING:
            if default is _MISSING:
                raise KeyError(key)
            return default
        self._blank(key)
        return found

    def _bump(self, c: int) -> None:
        self._versions[c] = self._versions.get(c, 0) + 1

    def _blank(self, key: Place) -> None:
        if self._kept:
            self._bump(key[1])
        col = self._cols.get(key[1])
        if col is not None and 0 < key[0] < len(col):
            self._put(col, key, None)

    def _put(self, col: list[Value], key: Place, value: Value) -> None:
        """Row key[0] of vector `col` (column key[1]) becomes `value`; `_odd` follows."""
        r = key[0]
        was = type(col[r]) is float
        col[r] = value
        if was != (type(value) is float):
            odd = self._odd[key[1]]
            if was:
                insort(odd, r)
            else:
                del odd[bisect_left(odd, r)]

    def clear(self) -> None:
        dict.clear(self)
        self._drop()

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self, *args, **kwargs)
        self._drop()

    def setdefault(self, key: Place, default: Value = None) -> Value:
        self._drop()
        return dict.setdefault(self, key, default)

    def popitem(self) -> tuple[Place, Value]:
        self._drop()
        return dict.popitem(self)

    def __ior__(self, other: Any) -> Values:  # type: ignore[override,misc]
        self.update(other)
        return self

    def _drop(self) -> None:
        self._cols.clear()
        self._odd.clear()
        self._kept.clear()
        self._size = 0

    def remembered(self, c: int, key: Any, compute: Callable[[], list[Any]]) -> list[Any]:
        """`compute()`, a list that depends only on column c's values (a criterion's hits
        over rows of it, under `key`), kept until a value of column c changes: every write
        counts in `_versions` while anything is kept. Returns a list of the caller's own."""
        version = self._versions.get(c, 0)
        found = self._kept.get((c, key))
        if found is not None and found[0] == version:
            return list(found[1])
        got = compute()
        if len(self._kept) >= _KEPT:
            self._kept.clear()
        self._kept[(c, key)] = (version, list(got))
        return got

    def column(self, r1: int, r2: int, c: int) -> list[Value]:
        """Rows r1..r2 of column c, blanks as None (a new list: callers may change it).
        The vector is extended only while the sheet's vectors stay within a few times
        what it stores, so that a far-away or huge read never pins a huge list."""
        col = self._cols.get(c)
        have = 0 if col is None else len(col)
        if r2 < have:
            return col[r1 : r2 + 1]  # type: ignore[index]
        if self._size + r2 + 1 - have > 4 * len(self) + _FLOOR:
            return list(map(self.get, zip(range(r1, r2 + 1), repeat(c))))
        with _GROW:  # readers of one book in two threads extend a vector once
            return self._grown(r1, r2, c)

    def _grown(self, r1: int, r2: int, c: int) -> list[Value]:
        """`column` extending the vector first: its non-number rows are listed before the
        vector grows, so that a reader never sees rows the list does not cover yet."""
        col = self._cols.get(c)
        if col is None:
            self._odd[c] = []
            col = self._cols[c] = [None]
        have = len(col)
        if r2 >= have:
            new = list(map(self.get, zip(range(have, r2 + 1), repeat(c))))
            self._odd[c].extend(r for r, v in enumerate(new, have) if type(v) is not float)
            col.extend(new)
            self._size += len(new)
        return col[r1 : r2 + 1]

    def odd(self, r1: int, r2: int, c: int, most: int) -> list[int] | None:
        """The rows among r1..r2 of column c that do not hold a number (blank, text,
        logical, error), known from its vector; None when no vector covers them or when
        there are more than `most`."""
        col = self._cols.get(c)
        if col is None or r2 >= len(col) or r1 < 1:
            return None
        odd = self._odd[c]
        i, j = bisect_left(odd, r1), bisect_right(odd, r2)
        return odd[i:j] if j - i <= most else None

    def vectors(self) -> dict[int, int]:
        """Column -> rows its vector covers (0..n-1), for tests of the bookkeeping."""
        return {c: len(col) for c, col in self._cols.items()}


@dataclass
class SheetData:
    """One sheet of a `engine.Book`: its stored cells, their non-blank values, used extent."""

    id: int
    name: str
    cells: dict[tuple[int, int], CellState]
    values: Values  # a plain dict given is wrapped, so that range reads slice its vectors
    max_row: int = 0
    max_col: int = 0

    def __post_init__(self) -> None:
        if type(self.values) is not Values:
            self.values = Values(self.values)
