"""Grading spreadsheets by what their outputs do, not what they show.

`Follows` is the check for goals that ask for a formula, a fix or a pivot table: the
target cells must hold the expected values in the final state *and* on private
in-memory copies of it whose source cells were changed (several rounds), recalculated
and, for pivot tables, refreshed. A number typed in that happens to be right today
fails the first round. The copies are `Book`s loaded from the final state's connection:
the database is only read, so grading stays a pure function of the two states.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.orm import Session

from officegym import clock
from officegym.apps.sheets import pivots, store
from officegym.apps.sheets.engine import Book, CellState, Key
from officegym.apps.sheets.models import Change, Pivot
from officegym.apps.sheets.refs import Area, parse_area
from officegym.apps.sheets.values import Value, XlError, serial_of
from officegym.tasks.checks import Check, GradeContext

__all__ = ["Edit", "Follows", "Reader", "final_book", "follows", "load_final"]

Edit = tuple[str, str, str | float | None]  # (sheet, A1 cell, what to type)


class Reader:
    """Values of a (possibly perturbed) workbook copy, by sheet name and A1."""

    def __init__(self, book: Book) -> None:
        self.book = book

    def sid(self, sheet: str) -> int:
        found = self.book.sheet_id(sheet)
        if found is None:
            raise KeyError(f"no sheet {sheet!r}")
        return found

    def grid(self, sheet: str, ref: str) -> list[list[Value]]:
        a, sid = parse_area(ref), self.sid(sheet)
        return [
            [self.book.value(sid, r, c) for c in range(a.c1, a.c2 + 1)]
            for r in range(a.r1, a.r2 + 1)
        ]

    def column(self, sheet: str, ref: str) -> list[Value]:
        return [row[0] for row in self.grid(sheet, ref)]

    def value(self, sheet: str, cell: str) -> Value:
        return self.grid(sheet, cell)[0][0]


def _today(conn: Connection, workbook_id: int) -> float:
    last = conn.execute(
        select(func.max(Change.at)).where(Change.workbook_id == workbook_id)
    ).scalar()
    return serial_of(last.date() if last else clock.UNCLOCKED.date())


def _load(conn: Connection, workbook_id: int) -> Book:
    with Session(bind=conn) as s:
        return store.load(s, workbook_id, _today(conn, workbook_id))


_INITIAL: weakref.WeakKeyDictionary[Engine, dict[int, Book]] = weakref.WeakKeyDictionary()


def load_final(g: GradeContext, workbook_id: int) -> Book:
    """A private copy of a workbook as the final state holds it: the initial workbook
    (loaded once per world) brought up to date with the episode's changes — new sheets,
    names, changed cells — or, when sheets were renamed or deleted or the workbook is
    new, loaded from the final state."""
    books = _INITIAL.setdefault(g.initial.engine, {})
    if workbook_id not in books:
        books[workbook_id] = _load(g.initial, workbook_id)
    sheets = [
        c for c in g.changes if c.table == "sheets_sheet" and c.row["workbook_id"] == workbook_id
    ]
    if not books[workbook_id].sheets or any(c.kind != "insert" for c in sheets):
        return _load(g.final, workbook_id)
    book = books[workbook_id].fork()
    for c in sheets:
        book.add_sheet(c.after["id"], c.after["name"])  # type: ignore[index]
    _apply_cells(
        book,
        [c for c in g.changes if c.table == "sheets_cell" and c.row["sheet_id"] in book.sheets],
    )
    if sheets or any(c.table == "sheets_named_range" for c in g.changes):
        with Session(bind=g.final) as s:
            store.resync(s, book)
    book.today = _today(g.final, workbook_id)
    return book


def _apply_cells(book: Book, cells: list[Any]) -> None:
    """The episode's changed cells into a fork: every old place emptied, then filled."""
    for c in cells:
        if c.before is not None:
            book.place(c.before["sheet_id"], c.before["row"], c.before["col"], None)
    for c in cells:
        a = c.after
        if a is not None:
            value = store.value_of(a["kind"], a["num"], a["text"])
            book.place(
                a["sheet_id"], a["row"], a["col"], CellState(a["id"], a["input"], value, a["fmt"])
            )


def _pivots(g: GradeContext, workbook_id: int) -> list[Any]:
    """The workbook's pivot tables in the final state, read once per grading."""
    if getattr(_GRADING, "g", None) is not g:
        _GRADING.g, _GRADING.books, _GRADING.pivots = g, {}, {}
    found: dict[int, list[Any]] = _GRADING.pivots
    if workbook_id not in found:
        stmt = select(Pivot.__table__).where(Pivot.workbook_id == workbook_id)
        found[workbook_id] = g.final.execute(stmt).all()
    return found[workbook_id]


def _refresh_pivots(book: Book, g: GradeContext, workbook_id: int, changed: list[Key]) -> None:
    """Rewrite the cells of every pivot table fed by the changed cells, in the copy only."""
    rows = _pivots(g, workbook_id)
    for p in rows:
        src = parse_area(p.source)
        if not any(
            k[0] == p.source_sheet_id and src.contains(k[1], k[2]) for k in [*changed, *book.dirty]
        ):
            continue
        table = pivots.compute(book, p.source_sheet_id, src, p.rows, p.columns, p.values, p.filters)
        anchor = parse_area(p.anchor)
        keys = []
        if p.extent:
            old = parse_area(p.extent)
            for r in range(old.r1, old.r2 + 1):
                for c in range(old.c1, old.c2 + 1):
                    if book.cell(p.target_sheet_id, r, c) is not None:
                        book.set_input(p.target_sheet_id, r, c, None)
                        keys.append((p.target_sheet_id, r, c))
        for i, row in enumerate(table):
            for j, v in enumerate(row):
                if v is not None:
                    key = (p.target_sheet_id, anchor.r1 + i, anchor.c1 + j)
                    book.set_input(*key, pivots._typed(v))
                    keys.append(key)
        book.recalc(keys)


def _same(got: Value, want: Value) -> bool:
    if isinstance(want, float | int) and not isinstance(want, bool):
        return (
            isinstance(got, float | int)
            and not isinstance(got, bool)
            and abs(got - want) <= 1e-6 * max(1, abs(want))
        )
    if isinstance(want, str) and isinstance(got, str):
        return got.strip().lower() == want.strip().lower()
    return got == want and type(got) is type(want)


@dataclass(frozen=True, kw_only=True)
class Follows(Check):
    """The cells `target` (sheet, A1 range) of workbook `workbook_id` equal `expect(reader)`
    in the final state and after each round of `rounds` (edits to source cells) applied
    to a private copy. An error value anywhere in the target fails."""

    workbook_id: int
    target: tuple[str, str]
    expect: Callable[[Reader], list[list[Value]]]
    rounds: Sequence[Sequence[Edit]] = ()

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        return follows(g, self.workbook_id, self.target, self.expect, self.rounds)


def _apply(reader: Reader, edit: Edit) -> Key:
    sheet, cell, text = edit
    area: Area = parse_area(cell)
    sid = reader.sid(sheet)
    typed = None if text is None else (text if isinstance(text, str) else repr(float(text)))
    reader.book.set_input(sid, area.r1, area.c1, typed)
    return (sid, area.r1, area.c1)


def _matches(got: list[list[Value]], want: list[list[Value]]) -> bool:
    return len(got) == len(want) and all(
        len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
        for a, b in zip(got, want, strict=True)
    )


def follows(
    g: GradeContext,
    workbook_id: int,
    target: tuple[str, str],
    expect: Callable[[Reader], list[list[Value]]],
    rounds: Sequence[Sequence[Edit]] = (),
) -> tuple[bool, str]:
    """`Follows`'s verdict, for checks that find their workbook first."""
    where = f"{target[0]}!{target[1]}"
    reader = Reader(final_book(g, workbook_id))
    for n, edits in enumerate([(), *rounds]):
        before = [_input_at(reader, edit) for edit in edits]
        keys = _change(reader, g, workbook_id, list(edits))
        got, want = reader.grid(*target), expect(reader)
        _change(reader, g, workbook_id, before)  # undo, for the next round and check
        if not _matches(got, want):
            state = "the final state" if n == 0 else f"a copy with {len(keys)} cells changed"
            return False, f"{where} in {state}: {_short(got)}, want {_short(want)}"
    return True, f"{where} follows its sources ({len(rounds)} rounds of changes)"


def _change(reader: Reader, g: GradeContext, workbook_id: int, edits: list[Edit]) -> list[Key]:
    """Type edits into the copy, recalculate, refresh the pivot tables they feed."""
    keys = [_apply(reader, edit) for edit in edits]
    reader.book.recalc(keys)
    _refresh_pivots(reader.book, g, workbook_id, keys)
    return keys


def _input_at(reader: Reader, edit: Edit) -> Edit:
    """The edit that puts back what a cell holds now."""
    sheet, cell, _ = edit
    area = parse_area(cell)
    state = reader.book.cell(reader.sid(sheet), area.r1, area.c1)
    return (sheet, cell, state.input if state is not None else None)


_GRADING = threading.local()


def final_book(g: GradeContext, workbook_id: int) -> Book:
    """The final copy of a workbook, loaded once per grading (every check of one grade
    shares it; perturbations are undone after each round)."""
    if getattr(_GRADING, "g", None) is not g:
        _GRADING.g, _GRADING.books, _GRADING.pivots = g, {}, {}
    books: dict[int, Book] = _GRADING.books
    if workbook_id not in books:
        books[workbook_id] = load_final(g, workbook_id)
    return books[workbook_id]


def _short(rows: list[list[Value]]) -> str:
    flat = [v.code if isinstance(v, XlError) else v for row in rows for v in row]
    text = repr(flat[:8])
    return text if len(flat) <= 8 else text[:-1] + ", ...]"
