"""Grading spreadsheets by what their outputs do, not what they show.

`Follows` is the check for goals that ask for a formula, a fix or a pivot table: the
target cells must hold the expected values in the final state *and* on private
in-memory copies of it whose sources were changed, recalculated and, for pivot tables,
refreshed by the app's own pivot computation (`apps/sheets/pivot_output.py`). The
sources are the cells the expectation reads (`sources.py`): every one of them, the
blank cells just around them too, changes on each of `ROUNDS` independent rounds, as
an online judge runs hidden test cases; a template may add rounds of its own. A
pivot table whose output cells no longer hold what it computes (typed over) fails. The
copies are `Book`s forked from the final state: the database is only read, so grading
stays a pure function of the two states.
"""

from __future__ import annotations

import functools
import random
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.orm import Session

from officegym import clock
from officegym.apps.sheets import budget, store
from officegym.apps.sheets.engine import Book, CellState, Key
from officegym.apps.sheets.models import Change, Pivot
from officegym.apps.sheets.pivot_output import feeds, intact, overlaps, render
from officegym.apps.sheets.refs import Area, parse_area
from officegym.apps.sheets.values import Value, XlError, serial_of
from officegym.db import Base
from officegym.tasks.checks import Check, GradeContext, NewRowId, Predicate, free_where
from officegym.tasks.freedom import Free
from officegym.tasks.sheets.sources import (
    ROUNDS,
    categories,
    edge_rounds,
    edges,
    perturbation,
    runs,
)

__all__ = [
    "Computes",
    "Edit",
    "Follows",
    "Reader",
    "computed_cells",
    "final_book",
    "follows",
    "load_final",
]

Edit = tuple[str, str, str | float | None]  # (sheet, A1 cell, what to type)


class Reader:
    """Values of a (possibly perturbed) workbook copy, by sheet name and A1. With
    `trace`, the areas read are noted in `reads` (the expectation's sources)."""

    def __init__(self, book: Book, *, trace: bool = False) -> None:
        self.book = book
        self.reads: list[tuple[int, Area]] | None = [] if trace else None

    def sid(self, sheet: str) -> int:
        found = self.book.sheet_id(sheet)
        if found is None:
            raise KeyError(f"no sheet {sheet!r}")
        return found

    def rows(self, sheet: str) -> int:
        """The sheet's last used row (read to it to include rows added below the data)."""
        return self.book.sheets[self.sid(sheet)].max_row

    def grid(self, sheet: str, ref: str) -> list[list[Value]]:
        a, sid = _area(ref), self.sid(sheet)
        if self.reads is not None:
            self.reads.append((sid, a))
        return [
            [self.book.value(sid, r, c) for c in range(a.c1, a.c2 + 1)]
            for r in range(a.r1, a.r2 + 1)
        ]

    def column(self, sheet: str, ref: str) -> list[Value]:
        return [row[0] for row in self.grid(sheet, ref)]

    def value(self, sheet: str, cell: str) -> Value:
        return self.grid(sheet, cell)[0][0]


_area = functools.lru_cache(maxsize=8192)(parse_area)  # expectations read cell by cell


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
            state = CellState(a["id"], a["input"], value, a["fmt"], spill=a.get("spill"))
            book.place(a["sheet_id"], a["row"], a["col"], state)


def _pivots(g: GradeContext, workbook_id: int) -> list[Any]:
    """The workbook's pivot tables in the final state, read once per grading."""
    if getattr(_GRADING, "g", None) is not g:
        _GRADING.g, _GRADING.books, _GRADING.pivots = g, {}, {}
    found: dict[int, list[Any]] = _GRADING.pivots
    if workbook_id not in found:
        stmt = select(Pivot.__table__).where(Pivot.workbook_id == workbook_id)
        found[workbook_id] = g.final.execute(stmt).all()
    return found[workbook_id]


def _refresh_pivots(book: Book, pivots: list[Any]) -> None:
    """Rewrite, in the copy only, every pivot table its changes reach (as the app does
    after an edit, through the same computation), until nothing more changes."""
    extents: dict[int, str] = {}
    for _ in range(4):
        changed = list(book.dirty)
        book.dirty.clear()
        keys: list[Key] = []
        for p in pivots:
            if feeds(book, p, changed):
                written, extents[p.id] = render(book, p, extents.get(p.id))
                keys += written
        if not keys:
            return
        book.recalc(keys)


def _typed_over(book: Book, pivots: list[Any], sid: int, area: Area) -> str | None:
    """Why a pivot table writing into the target is broken (its cells typed over), if so."""
    for p in pivots:
        if p.target_sheet_id == sid and p.extent and overlaps(parse_area(p.extent), area):
            ok, why = intact(book, p)
            if not ok:
                return f"pivot table {p.id} at {p.extent} was typed over: {why}"
    return None


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
    in the final state, after each of `rounds` (edits to source cells) and after each of
    `perturbed` rounds that change every cell `expect` reads (and the blank cells around
    them), each applied to a private copy. An error value anywhere in the target, or a
    pivot table there whose cells were typed over, fails."""

    workbook_id: int
    target: tuple[str, str]
    expect: Callable[[Reader], list[list[Value]]]
    rounds: Sequence[Sequence[Edit]] = ()
    perturbed: int = ROUNDS

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        return follows(
            g, self.workbook_id, self.target, self.expect, self.rounds, perturbed=self.perturbed
        )

    def frees(self, initial: Connection) -> Sequence[Free]:
        """The target cells' input and value: judged as a computation here, so another
        formula than the reference's is as good."""
        return computed_cells(initial, self.workbook_id, self.target, self.name)


@dataclass(frozen=True, kw_only=True)
class Computes(Predicate):
    """A `Predicate` whose `fn` judges the cells `target` (sheet, A1 range) of a workbook
    as a computation (through `follows`), so they are free of the reference's formula
    text as under `Follows`. `workbook`: its id, or the `NewRowId` of one the episode
    creates."""

    workbook: int | NewRowId
    target: tuple[str, str]

    def frees(self, initial: Connection) -> Sequence[Free]:
        return computed_cells(initial, self.workbook, self.target, self.name)


def computed_cells(
    initial: Connection, workbook: int | NewRowId, target: tuple[str, str], check: str
) -> tuple[Free, ...]:
    """The input and value of the cells `target` of a workbook (a new one: of the sheets
    the episode creates), free because check `check` judges them as a computation."""
    sheet, ref = target
    a = parse_area(ref)
    where: dict[str, Any] = {"row": range(a.r1, a.r2 + 1), "col": range(a.c1, a.c2 + 1)}
    if isinstance(workbook, NewRowId):
        where.update(free_where({"sheet_id": NewRowId("sheets_sheet", {})}, initial))
    else:
        t = Base.metadata.tables["sheets_sheet"]
        q = select(t.c.id).where(t.c.workbook_id == workbook, t.c.name == sheet)
        sid = initial.execute(q).scalar()
        if sid is not None:
            where["sheet_id"] = sid
    cols = ("input", "kind", "num", "text")
    return (Free("sheets_cell", cols, f"computed, judged by {check!r}", where),)


def _matches(got: list[list[Value]], want: list[list[Value]]) -> bool:
    return len(got) == len(want) and all(
        len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
        for a, b in zip(got, want, strict=True)
    )


# A grade must not depend on how busy the machine is: the grader's private copies
# recalculate under the same size caps as the site but a far longer time budget.
GRADING = replace(budget.LIMITS, seconds=60.0)


def follows(
    g: GradeContext,
    workbook_id: int,
    target: tuple[str, str],
    expect: Callable[[Reader], list[list[Value]]],
    rounds: Sequence[Sequence[Edit]] = (),
    *,
    perturbed: int = ROUNDS,
) -> tuple[bool, str]:
    """`Follows`'s verdict, for checks that find their workbook first."""
    with budget.limits(GRADING):
        return _follows(g, workbook_id, target, expect, rounds, perturbed)


def _follows(
    g: GradeContext,
    workbook_id: int,
    target: tuple[str, str],
    expect: Callable[[Reader], list[list[Value]]],
    rounds: Sequence[Sequence[Edit]],
    perturbed: int,
) -> tuple[bool, str]:
    where = f"{target[0]}!{target[1]}"
    book, pivots = final_book(g, workbook_id), _pivots(g, workbook_id)
    tracer = Reader(book, trace=True)
    sid, area = tracer.sid(target[0]), parse_area(target[1])
    broken = _typed_over(book, pivots, sid, area)
    if broken:
        return False, f"{where}: {broken}"
    got, want = Reader(book).grid(*target), expect(tracer)
    if not _matches(got, want):
        return False, f"{where} in the final state: {_short(got)}, want {_short(want)}"
    mine = functools.partial(_inside, sid, area)
    found = runs(tracer.reads or [], mine)
    changes = [_keyed(tracer, edits) for edits in rounds]
    at_edges = len(changes) + _random_rounds(
        book, found, mine, f"{workbook_id}:{target}", perturbed, changes
    )
    if perturbed and found:
        headers = {(p.source_sheet_id, parse_area(p.source).r1) for p in pivots}

        def kept(key: Key) -> bool:  # the result's cells and the pivot tables' field names
            return mine(key) or key[:2] in headers

        for k in range(edge_rounds(book, found)):
            rng = random.Random(f"{workbook_id}:{target}:edge{k}")
            changes.append(edges(book, found, rng, kept, k))
    for i, edits in enumerate(changes):
        copy = Reader(book.fork())
        _change(copy.book, edits, pivots)
        try:
            got, want = copy.grid(*target), expect(copy)
        except (ArithmeticError, ValueError):
            if i < at_edges:
                raise
            continue  # the expectation cannot take the extremes (a date past 9999)
        if not _matches(got, want):
            state = f"a copy with {len(edits)} source cells changed"
            return False, f"{where} in {state}: {_short(got)}, want {_short(want)}"
    n = len(changes)
    return True, f"{where} follows its sources ({n} rounds of changes, {len(found)} source runs)"


def _random_rounds(
    book: Book,
    found: list[Any],
    mine: Callable[[Key], bool],
    seed: str,
    perturbed: int,
    into: list[dict[Key, str | None]],
) -> int:
    """Append the random rounds of changes to every source run to `into` (as many as
    `perturbed`, or as the runs of keys need); how many."""
    n = max(perturbed, categories(book, found)) if perturbed and found else 0
    into.extend(perturbation(book, found, random.Random(f"{seed}:{k}"), mine, k) for k in range(n))
    return n


def _inside(sid: int, area: Area, key: Key) -> bool:
    return key[0] == sid and area.contains(key[1], key[2])


def _keyed(reader: Reader, edits: Sequence[Edit]) -> dict[Key, str | None]:
    """A template's edits as inputs by cell."""
    out: dict[Key, str | None] = {}
    for sheet, cell, text in edits:
        a = parse_area(cell)
        typed = None if text is None else (text if isinstance(text, str) else repr(float(text)))
        out[(reader.sid(sheet), a.r1, a.c1)] = typed
    return out


def _change(book: Book, edits: dict[Key, str | None], pivots: list[Any]) -> None:
    """Type edits into the copy, recalculate, refresh the pivot tables they feed."""
    book.dirty.clear()
    for key, text in edits.items():
        book.set_input(*key, text)
    book.recalc(list(edits))
    _refresh_pivots(book, pivots)


_GRADING = threading.local()


def final_book(g: GradeContext, workbook_id: int) -> Book:
    """The final copy of a workbook, loaded once per grading (every check of one grade
    shares it and never changes it: each round runs on a fork)."""
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
