"""Addresses: column letters, A1 cells and ranges, sheet-qualified references.

Rows and columns are 1-based, as people count them. A `Area` is a rectangle
(r1, c1, r2, c2) on one sheet; whole columns (``A:C``) and rows (``2:5``) are
areas that reach the sheet's limits.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from officegym.errors import Invalid

__all__ = [
    "MAX_COLS",
    "MAX_ROWS",
    "Area",
    "Rect",
    "a1",
    "col_index",
    "col_letters",
    "parse_area",
    "quote_sheet",
    "split_sheet",
]

MAX_ROWS = 1_048_576  # Excel's grid
MAX_COLS = 16_384  # XFD
_CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")
_COL = re.compile(r"^\$?([A-Za-z]{1,3})$")
_ROW = re.compile(r"^\$?(\d{1,7})$")


@functools.lru_cache(maxsize=4096)
def col_letters(col: int) -> str:
    """1 -> A, 27 -> AA."""
    out = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


@functools.lru_cache(maxsize=4096)
def col_index(letters: str) -> int:
    """A -> 1, AA -> 27."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def a1(row: int, col: int) -> str:
    return f"{col_letters(col)}{row}"


class Rect:
    """Rows, columns and cell count of an inclusive rectangle `r1`..`r2` x `c1`..`c2`
    (shared by `Area` and the evaluator's `Rng`)."""

    __slots__ = ()
    r1: int
    c1: int
    r2: int
    c2: int

    @property
    def rows(self) -> int:
        return self.r2 - self.r1 + 1

    @property
    def cols(self) -> int:
        return self.c2 - self.c1 + 1

    @property
    def size(self) -> int:
        return (self.r2 - self.r1 + 1) * (self.c2 - self.c1 + 1)


@dataclass(frozen=True, slots=True)
class Area(Rect):
    """A rectangle of cells, inclusive, on the sheet `sheet` (None: the current one)."""

    r1: int
    c1: int
    r2: int
    c2: int
    sheet: str | None = None

    def contains(self, row: int, col: int) -> bool:
        return self.r1 <= row <= self.r2 and self.c1 <= col <= self.c2

    def a1(self) -> str:
        """The area in A1 notation, without its sheet."""
        first = a1(self.r1, self.c1)
        return first if self.size == 1 else f"{first}:{a1(self.r2, self.c2)}"

    def label(self) -> str:
        """The area with its sheet, as a formula would name it."""
        return f"{quote_sheet(self.sheet)}!{self.a1()}" if self.sheet else self.a1()


def quote_sheet(name: str) -> str:
    """A sheet name as formulas write it: quoted unless it is a plain word."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) and not _CELL.match(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def split_sheet(ref: str) -> tuple[str | None, str]:
    """'Sheet 1'!A1 -> ('Sheet 1', 'A1'); A1 -> (None, 'A1')."""
    if "!" not in ref:
        return None, ref
    sheet, _, rest = ref.rpartition("!")
    if sheet.startswith("'") and sheet.endswith("'") and len(sheet) >= 2:
        sheet = sheet[1:-1].replace("''", "'")
    return sheet, rest


def _corner(text: str) -> tuple[int, int] | None:
    m = _CELL.match(text)
    if m is None:
        return None
    return int(m.group(2)), col_index(m.group(1))


@functools.lru_cache(maxsize=8192)
def parse_area(ref: str) -> Area:
    """An A1 reference (``B3``, ``A1:C9``, ``A:A``, ``2:4``, ``'Q1 data'!B2:B9``) as an
    `Area`; `Invalid` naming the reference when it is not one or lies off the grid."""
    sheet, body = split_sheet(ref.strip())
    left, _, right = body.partition(":")
    right = right or left
    area = _cells(left, right) or _columns(left, right) or _rows(left, right)
    if area is None:
        raise Invalid(f"{ref!r} is not a cell or range reference such as A1 or A1:C10")
    r1, c1, r2, c2 = area
    r1, r2, c1, c2 = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        raise Invalid(f"{ref!r} lies off the sheet (at most {MAX_ROWS} rows, {MAX_COLS} columns)")
    return Area(r1, c1, r2, c2, sheet)


def _cells(left: str, right: str) -> tuple[int, int, int, int] | None:
    a, b = _corner(left), _corner(right)
    return (*a, *b) if a and b else None


def _columns(left: str, right: str) -> tuple[int, int, int, int] | None:
    a, b = _COL.match(left), _COL.match(right)
    if a and b:
        return 1, col_index(a.group(1)), MAX_ROWS, col_index(b.group(1))
    return None


def _rows(left: str, right: str) -> tuple[int, int, int, int] | None:
    a, b = _ROW.match(left), _ROW.match(right)
    if a and b:
        return int(a.group(1)), 1, int(b.group(1)), MAX_COLS
    return None
