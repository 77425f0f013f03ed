"""Rewriting the references inside formulas, as spreadsheets do when cells move:

- `translate`: a formula copied or filled by (rows, cols) — relative references move,
  absolute ones (``$A$1``) stay; a reference pushed off the grid becomes ``#REF!``;
- `shift_text`: rows or columns inserted or deleted on a sheet — references below or
  right of the change move, ranges that span it grow or shrink, references to
  deleted cells become ``#REF!``;
- `rename_references`: a sheet renamed (or deleted: ``#REF!``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.parse import rewrite
from officegym.apps.sheets.refs import (
    MAX_COLS,
    MAX_ROWS,
    col_index,
    col_letters,
    quote_sheet,
    split_sheet,
)

__all__ = ["Corner", "rename_references", "shift_area", "shift_text", "translate"]

_CORNER = re.compile(r"^(\$?)([A-Za-z]{0,3})(\$?)(\d*)$")


@dataclass
class Corner:
    col_abs: bool
    col: int | None
    row_abs: bool
    row: int | None

    def text(self) -> str:
        out = ""
        if self.col is not None:
            out += ("$" if self.col_abs else "") + col_letters(self.col)
        if self.row is not None:
            out += ("$" if self.row_abs else "") + str(self.row)
        return out

    def valid(self) -> bool:
        return (self.col is None or 1 <= self.col <= MAX_COLS) and (
            self.row is None or 1 <= self.row <= MAX_ROWS
        )


def parse_reference(token: str) -> tuple[str | None, list[Corner]] | None:
    """A reference token as (sheet, corners); None for a defined name."""
    sheet, body = split_sheet(token)
    corners = []
    for part in body.split(":"):
        if "!" in part:
            part = split_sheet(part)[1]
        m = _CORNER.match(part)
        if m is None or (not m.group(2) and not m.group(4)):
            return None
        col = col_index(m.group(2)) if m.group(2) else None
        row = int(m.group(4)) if m.group(4) else None
        corners.append(Corner(m.group(1) == "$", col, m.group(3) == "$", row))
    if len(corners) == 1 and (corners[0].col is None or corners[0].row is None):
        return None  # "A" or "5" alone is a name, not a reference
    return sheet, corners


def render_reference(sheet: str | None, corners: list[Corner]) -> str:
    prefix = f"{quote_sheet(sheet)}!" if sheet else ""
    return prefix + ":".join(c.text() for c in corners)


def translate(formula: str, rows: int, cols: int) -> str:
    """`formula` (without '=') copied `rows` down and `cols` right."""

    def move(token: str) -> str:
        parsed = parse_reference(token)
        if parsed is None:
            return token
        sheet, corners = parsed
        for c in corners:
            if c.row is not None and not c.row_abs:
                c.row += rows
            if c.col is not None and not c.col_abs:
                c.col += cols
        if not all(c.valid() for c in corners):
            return "#REF!"
        return render_reference(sheet, corners)

    return rewrite(formula, move)


def shift_area(lo: int, hi: int, at: int, count: int) -> tuple[int, int] | None:
    """A span [lo, hi] after inserting `count` lines at `at` (count < 0: deleting -count
    lines from `at`); None when all of it was deleted."""
    if count > 0:
        top = MAX_ROWS if hi <= MAX_ROWS else hi  # (a whole row or column stays whole)
        return (lo + count if lo >= at else lo, min(hi + count, top) if hi >= at else hi)
    n = -count
    end = at + n - 1
    new_lo = lo if lo < at else (at if lo <= end else lo - n)
    new_hi = hi if hi < at else (at - 1 if hi <= end else hi - n)
    return None if new_lo > new_hi else (new_lo, new_hi)


def shift_text(formula: str, home: str, target: str, axis: str, at: int, count: int) -> str:
    """`formula` of a cell on sheet `home` after lines moved on sheet `target` (axis
    "row" or "col")."""

    def move(token: str) -> str:
        parsed = parse_reference(token)
        if parsed is None:
            return token
        sheet, corners = parsed
        if (sheet or home).lower() != target.lower():
            return token
        attr = "row" if axis == "row" else "col"
        values = [getattr(c, attr) for c in corners]
        if values[0] is None:
            return token  # a whole column is untouched by rows moving (and vice versa)
        lo, hi = values[0], values[-1]
        span = shift_area(min(lo, hi), max(lo, hi), at, count)
        if span is None:
            return "#REF!"
        setattr(corners[0], attr, span[0])
        setattr(corners[-1], attr, span[1])
        return render_reference(sheet, corners)

    return rewrite(formula, move)


def rename_references(b: Book, old: str, new: str | None, *, skip_sheet: int | None = None) -> int:
    """Point every formula naming sheet `old` at `new` (None: ``#REF!``); returns how many
    formulas changed. Cells are re-typed in the book (not recalculated)."""

    def move(token: str) -> str:
        sheet, body = split_sheet(token)
        if sheet is None or sheet.lower() != old.lower():
            return token
        return "#REF!" if new is None else f"{quote_sheet(new)}!{body}"

    return retype(b, lambda text, _sid: rewrite(text, move), skip_sheet=skip_sheet)


def retype(b: Book, edit: Callable[[str, int], str], *, skip_sheet: int | None = None) -> int:
    """Apply `edit(formula_without_eq, sheet_id)` to every formula of the book."""
    changed = 0
    for sid, sheet in b.sheets.items():
        if sid == skip_sheet:
            continue
        for (r, c), st in list(sheet.cells.items()):
            if st.formula is None or st.input is None:
                continue
            new = edit(st.input[1:], sid)
            if new != st.input[1:]:
                b.set_input(sid, r, c, "=" + new)
                changed += 1
    return changed
