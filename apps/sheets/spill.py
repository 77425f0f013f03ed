"""Dynamic arrays that spill, as Google Sheets does them.

A formula whose result is an array (UNIQUE, FILTER, SORT, SEQUENCE, SPLIT, ARRAYFORMULA,
TRANSPOSE, a range such as ``=A1:A5``, array arithmetic) shows its top-left value in its
own cell, the anchor, and fills the cells to its right and below with the rest. Those
spilled cells hold values only (no input: the API and the grid return them as values
without a formula, as Sheets does). If any of them holds something, the anchor shows
``#REF!`` with Sheets' note "Array result was not expanded because it would overwrite
data in B2." (Excel shows ``#SPILL!`` here; the clone follows Sheets) and spills nothing.

The anchor's cell stores the size of its array (`CellState.spill`: ``"3x2"``, or
``"!3x2"`` when blocked), so a loaded workbook knows its spills without evaluating. The
engine asks this module which anchors cover a cell (`Spills.covering`: typing into a
spilled cell or clearing a blocker recalculates the anchor) and recalculates the readers
of the cells a spill changed (`Spills.take_changed`). A reference spills as far as its
sheet's used extent (the blank rows past it would show nothing); an array larger than
the budget's spill cap (`budget.Limits.spill`) shows the budget's error.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from officegym.apps.sheets import budget
from officegym.apps.sheets.compiler import Compiled, shown
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, a1, quote_sheet
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import CIRC, NUM, REF, VALUE, Value

if TYPE_CHECKING:
    from officegym.apps.sheets.engine import Book

__all__ = ["Spills", "evaluate", "message", "report", "settle", "size_text"]

Array = list[list[Value]]
Key = tuple[int, int, int]
Place = tuple[int, int, bool]  # rows, columns, blocked


class Spills:
    """Where a workbook's arrays spill: per sheet, each anchor's array size and whether it
    is blocked; `changed` collects the cells a spill wrote or cleared since last taken."""

    def __init__(self) -> None:
        self.anchors: dict[int, dict[tuple[int, int], Place]] = {}
        self.changed: dict[Key, None] = {}

    def copy(self) -> Spills:
        out = Spills()
        out.anchors = {sid: dict(a) for sid, a in self.anchors.items()}
        return out

    def note(self, key: Key, text: str | None) -> None:
        """Record (or forget, for None) an anchor's stored size (`size_text`)."""
        sid, row, col = key
        if text is None:
            self.anchors.get(sid, {}).pop((row, col), None)
            return
        rows, _, cols = text.lstrip("!").partition("x")
        self.anchors.setdefault(sid, {})[(row, col)] = (int(rows), int(cols), text[0] == "!")

    def rebuild(self, book: Book) -> None:
        """Re-index the anchors from the cells' stored sizes (after cells moved, a sort),
        and empty spilled values no anchor covers any more (moved away from it)."""
        self.anchors = {}
        for sid, sheet in book.sheets.items():
            for (r, c), st in sheet.cells.items():
                if st.spill:
                    self.note((sid, r, c), st.spill)
        for sid, sheet in book.sheets.items():
            for (r, c), st in list(sheet.cells.items()):
                if st.input is None and st.value is not None and self.owner(sid, r, c) is None:
                    _empty(book, (sid, r, c))

    def covering(self, book: Book, key: Key) -> list[Key]:
        """Anchors to recalculate after `key` changed: those blocked there, and those that
        spill there unless the cell still holds what they spilled (typed over, cleared)."""
        sid, row, col = key
        anchors = self.anchors.get(sid)
        if not anchors:
            return []
        st = book.sheets[sid].cells.get((row, col))
        spilled = st is not None and st.input is None and st.value is not None
        return [
            (sid, r, c)
            for (r, c), (h, w, blocked) in anchors.items()
            if r <= row < r + h and c <= col < c + w and (r, c) != (row, col)
            if blocked or not spilled
        ]

    def owner(self, sid: int, row: int, col: int) -> tuple[int, int] | None:
        """The anchor whose unblocked spill covers (row, col), if any."""
        for (r, c), (h, w, blocked) in self.anchors.get(sid, {}).items():
            if not blocked and r <= row < r + h and c <= col < c + w:
                return r, c
        return None

    def take_changed(self) -> list[Key]:
        out, self.changed = list(self.changed), {}
        return out

    def release(self, book: Book, key: Key) -> int:
        """The cell no longer holds a formula: clear what it spilled (returns 0, the
        number of formulas evaluated, for the engine's count)."""
        if key[1:] in self.anchors.get(key[0], {}):
            _clear(book, key, None)
            _mark(book, key, None)
        return 0


def size_text(rows: int, cols: int, blocked: bool) -> str:
    return f"{'!' if blocked else ''}{rows}x{cols}"


def evaluate(ctx: Ctx, formula: Compiled, found: list[Array]) -> Value:
    """Run a formula for its cell: the value its anchor shows; an array result larger
    than one cell is appended to `found` (checked against the budget first)."""
    raw = (formula.raw or formula.run)(ctx)
    matrix = _matrix(raw)
    if matrix is None:
        return shown(raw)
    budget.spill(len(matrix) * len(matrix[0]))
    found.append(matrix)
    return shown(matrix[0][0])


def _matrix(raw: Any) -> Array | None:
    if isinstance(raw, Rng):
        if not raw.valid or raw.size == 1:
            return None
        matrix = raw.matrix()
    elif is_array(raw):
        matrix = raw
    else:
        return None
    if not matrix or not matrix[0] or (len(matrix) == 1 and len(matrix[0]) == 1):
        return None
    return matrix


def settle(book: Book, key: Key, value: Value, matrix: Array | None) -> Value:
    """Spill `matrix` from the anchor `key` (or clear its old spill when None) and return
    what the anchor shows: `value`, or #REF! when the spill is blocked or reads itself."""
    row, col = key[1:]
    if matrix is None:
        book.spills.release(book, key)
        return value
    h, w = len(matrix), len(matrix[0])
    area = (row, col, row + h - 1, col + w - 1)
    blocked = area[2] > MAX_ROWS or area[3] > MAX_COLS or _blocker(book, key, area) is not None
    if _reads_itself(book, key, area):
        blocked, value = True, CIRC
    _clear(book, key, None if blocked else area)
    _mark(book, key, size_text(h, w, blocked))
    if blocked:
        return value if value is CIRC else REF
    _write(book, key, matrix)
    return value


def _mark(book: Book, key: Key, text: str | None) -> None:
    """Store the anchor's array size in its cell (saved with it) and in the index."""
    book.spills.note(key, text)
    state = book.sheets[key[0]].cells.get(key[1:])
    if state is not None and state.spill != text:
        state = book.own(*key)  # type: ignore[assignment]
        state.spill = text
        book.dirty[key] = None


def message(book: Book, key: Key) -> str | None:
    """Sheets' note on a blocked anchor ("... would overwrite data in B2."), else None."""
    sid, row, col = key
    place = book.spills.anchors.get(sid, {}).get((row, col))
    if place is None or not place[2]:
        return None
    h, w, _ = place
    found = _blocker(book, key, (row, col, row + h - 1, col + w - 1))
    if found is None:
        return "Array result was not expanded because it would exceed the sheet's size."
    return f"Array result was not expanded because it would overwrite data in {a1(*found)}."


def adoptable(book: Book, sid: int) -> list[tuple[int, int]]:
    """Typed cells that block an anchor while holding exactly what it would spill there:
    a file keeps spilled values as plain values (an .xlsx export, Excel's own files), so
    an import gives them back to their anchor by clearing these cells."""
    out: list[tuple[int, int]] = []
    for (r, c), (_, _, blocked) in list(book.spills.anchors.get(sid, {}).items()):
        state = book.cell(sid, r, c)
        if not blocked or state is None or state.formula is None:
            continue
        matrix = _array(book, (sid, r, c), state.formula)
        typed = [
            ((r + i, c + j), _element(v), book.cell(sid, r + i, c + j))
            for i, line in enumerate(matrix or [])
            for j, v in enumerate(line)
            if (i, j) != (0, 0)
        ]
        typed = [(k, v, st) for k, v, st in typed if st is not None and st.input is not None]
        if matrix and all(_equal(st.value, v) and st.formula is None for _, v, st in typed):
            out += [k for k, _, _ in typed]
    return out


def _array(book: Book, key: Key, formula: Compiled) -> Array | None:
    """The array a formula gives now (None for one value or an error)."""
    from officegym.apps.sheets.outcome import outcome

    found: list[Array] = []
    outcome(lambda: evaluate(Ctx(book, *key, book.today), formula, found))
    return found[0] if found else None


def _equal(a: Value, b: Value) -> bool:
    return a == b and type(a) is type(b)


def report(book: Book, sid: int, area: tuple[int, int, int, int]) -> dict[str, Any]:
    """For a write's answer: where the anchors in `area` spilled (``{"K1": "S!K1:L3"}``)
    and Sheets' note on each blocked one (``"K1: Array result was not expanded ..."``)."""
    spills, notes = {}, []
    r1, c1, r2, c2 = area
    name = book.sheets[sid].name
    for (r, c), (h, w, blocked) in sorted(book.spills.anchors.get(sid, {}).items()):
        if r1 <= r <= r2 and c1 <= c <= c2:
            if blocked:
                notes.append(f"{a1(r, c)}: {message(book, (sid, r, c))}")
            else:
                spills[a1(r, c)] = f"{quote_sheet(name)}!{a1(r, c)}:{a1(r + h - 1, c + w - 1)}"
    return {k: v for k, v in (("spills", spills), ("notes", notes)) if v}


def _inside(book: Book, sid: int, area: tuple[int, int, int, int]) -> Iterator[tuple[int, int]]:
    """The stored places of `area`, walking the area or the sheet's cells, whichever is
    smaller, in row order."""
    r1, c1, r2, c2 = area
    cells = book.sheets[sid].cells
    if (r2 - r1 + 1) * (c2 - c1 + 1) <= len(cells):
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                if (r, c) in cells:
                    yield r, c
        return
    yield from sorted(k for k in cells if r1 <= k[0] <= r2 and c1 <= k[1] <= c2)


def _blocker(book: Book, key: Key, area: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """The first cell of `area` (the anchor aside) holding data: typed content, or a
    value another anchor spilled there."""
    sid, row, col = key
    for r, c in _inside(book, sid, area):
        st = book.sheets[sid].cells[(r, c)]
        if (r, c) == (row, col) or (st.input is None and st.value is None):
            continue
        if st.input is not None or book.spills.owner(sid, r, c) not in (None, (row, col)):
            return r, c
    return None


def _reads_itself(book: Book, key: Key, area: tuple[int, int, int, int]) -> bool:
    """Whether the anchor's formula reads a cell of its own spill (a circular reference)."""
    sid, row, col = key
    for tsid, (r1, c1, r2, c2) in book.reads.get(key, ()):
        overlap = r1 <= area[2] and area[0] <= r2 and c1 <= area[3] and area[1] <= c2
        if tsid == sid and overlap and (r1, c1, r2, c2) != (row, col, row, col):
            return True
    return False


def _clear(book: Book, key: Key, keep: tuple[int, int, int, int] | None) -> None:
    """Empty the cells the anchor spilled before, except those inside `keep`."""
    sid, row, col = key
    place = book.spills.anchors.get(sid, {}).get((row, col))
    if place is None or place[2]:
        return
    h, w, _ = place
    sheet = book.sheets[sid]
    for r, c in list(_inside(book, sid, (row, col, row + h - 1, col + w - 1))):
        st = sheet.cells[(r, c)]
        if (r, c) == (row, col) or st.input is not None or st.value is None:
            continue
        if keep is not None and keep[0] <= r <= keep[2] and keep[1] <= c <= keep[3]:
            continue
        _empty(book, (sid, r, c))


def _empty(book: Book, key: Key) -> None:
    """Remove a spilled value from its cell (its format stays)."""
    st = book.own(*key)
    if st is not None:
        st.value = None
        book.sheets[key[0]].values.pop(key[1:], None)
        book.dirty[key] = None
        book.spills.changed[key] = None


def _write(book: Book, key: Key, matrix: Array) -> None:
    """Put the array's values (all but the anchor's) in the cells right of and below it."""
    from officegym.apps.sheets.engine import CellState

    sid, row, col = key
    sheet = book.sheets[sid]
    for i, line in enumerate(matrix):  # its size was checked (`budget.spill`)
        for j, v in enumerate(line):
            if i == 0 and j == 0:
                continue
            place, v = (row + i, col + j), _element(v)
            st = sheet.cells.get(place)
            if st is None and v is None:
                continue
            if st is not None and st.value == v and type(st.value) is type(v):
                continue
            if st is None:
                st = sheet.cells[place] = CellState(None, None, None, owner=book.token)
            else:
                st = book.own(sid, *place)  # type: ignore[assignment]
            st.value = v
            if v is None:
                sheet.values.pop(place, None)
            else:
                sheet.values[place] = v
                sheet.max_row, sheet.max_col = (
                    max(sheet.max_row, place[0]),
                    max(sheet.max_col, place[1]),
                )
            book.dirty[(sid, *place)] = None
            book.spills.changed[(sid, *place)] = None


def _element(v: Value) -> Value:
    """A spilled element as its cell holds it: blanks stay blank (as in Sheets), numbers
    are floats, and the same limits as an anchor's value (`outcome`)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    if type(v) is float and not math.isfinite(v):
        return NUM
    if isinstance(v, str) and len(v) > 50_000:
        return VALUE
    return v
