"""Workbooks between the database and the engine: `book(s, workbook_id)` loads a
workbook's cells into a `Book` (once per session: a tool runner's session keeps it
across calls, a web request's for the request), `save(s, book)` writes the cells an
operation changed, in a few statements.

The session's cache of books is dropped on rollback, so a failed operation leaves
no half-changed book behind.
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Table, bindparam, event, insert, select
from sqlalchemy.orm import Session

from officegym import clock, memo
from officegym.apps.sheets import shelf
from officegym.apps.sheets.engine import Book, CellState
from officegym.apps.sheets.models import Cell, NamedRange, Sheet
from officegym.apps.sheets.values import ERRORS, Value, XlError, serial_of
from officegym.db import cursor, mark, read

__all__ = [
    "book",
    "columns_of",
    "forget",
    "park",
    "save",
    "today_serial",
    "value_of",
]

_KEY = "sheets.books"
_COLS = ("row", "col", "input", "kind", "num", "text", "fmt", "spill")
_CELL: Table = Cell.__table__  # type: ignore[assignment]


def _books(s: Session) -> dict[int, Book]:
    memos = s.info.get("memo")
    if memos is not None:
        return memos.setdefault(_KEY, {})
    return s.info.setdefault(_KEY, {})


def forget(s: Session, workbook_id: int | None = None) -> None:
    """Drop the session's loaded books (all, or one)."""
    books = _books(s)
    if workbook_id is None:
        books.clear()
    else:
        books.pop(workbook_id, None)


@event.listens_for(Session, "after_soft_rollback")
def _on_rollback(s: Session, _previous: Any) -> None:
    s.info.pop(_KEY, None)


@event.listens_for(Session, "after_commit")
def _on_commit(s: Session) -> None:
    s.info.pop(_KEY, None)  # sessions without a memo keep books for one transaction


def today_serial(s: Session) -> float:
    """The world's simulated date as a serial number (what TODAY() returns)."""
    return serial_of(clock.peek(s).date())


def value_of(kind: str, num: float | None, text: str | None) -> Value:
    if kind == "number":
        return num
    if kind == "bool":
        return bool(num)
    if kind == "text":
        return text or ""
    if kind == "error":
        return ERRORS.get(text or "", XlError(text or "#VALUE!"))
    return None


def columns_of(v: Value) -> dict[str, Any]:
    """The stored columns of a computed value."""
    if v is None:
        return {"kind": "blank", "num": None, "text": None}
    if isinstance(v, bool):
        return {"kind": "bool", "num": 1.0 if v else 0.0, "text": None}
    if isinstance(v, float | int):
        return {"kind": "number", "num": float(v), "text": None}
    if isinstance(v, XlError):
        return {"kind": "error", "num": None, "text": v.code}
    return {"kind": "text", "num": None, "text": v}


_SHEETS = (
    select(Sheet.id, Sheet.name)
    .where(Sheet.workbook_id == bindparam("wb"))
    .order_by(Sheet.position)
)
_CELLS = select(
    Cell.id, Cell.sheet_id, Cell.row, Cell.col, Cell.input, Cell.kind, Cell.num, Cell.text, Cell.fmt
).where(Cell.sheet_id.in_(bindparam("sids", expanding=True)))
_NAMES = select(
    NamedRange.name, NamedRange.sheet_id, NamedRange.r1, NamedRange.c1, NamedRange.r2, NamedRange.c2
).where(NamedRange.workbook_id == bindparam("wb"))


def load(s: Session, workbook_id: int, today: float | None = None) -> Book:
    """A workbook's cells and formulas from the database (values as stored)."""
    b = Book(workbook_id, today if today is not None else today_serial(s))
    for sid, name in read(s, _SHEETS, {"wb": workbook_id}):
        b.add_sheet(sid, name)
    for name, sid, r1, c1, r2, c2 in read(s, _NAMES, {"wb": workbook_id}):
        b.names[name.upper()] = (sid, (r1, c1, r2, c2))
    if b.sheets:
        m = mark(s)
        sql = (
            "SELECT id, sheet_id, row, col, input, kind, num, text, fmt, spill FROM sheets_cell "
            f"WHERE sheet_id IN ({', '.join([m] * len(b.sheets))}) ORDER BY id"
        )
        cur = cursor(s)
        cur.execute(sql, list(b.sheets))
        for cid, sid, r, c, inp, kind, num, text, fmt, spill in cur.fetchall():
            state = CellState(cid, inp, value_of(kind, num, text), fmt, spill=spill)
            b.load_cell(sid, r, c, state)
    return b


def resync(s: Session, b: Book) -> None:
    """Bring a loaded book's sheets and names up to the database (after sheets were added,
    renamed or deleted, or names defined) and rebuild its graph; cells stay as loaded."""
    rows = read(s, _SHEETS, {"wb": b.workbook_id}).all()
    kept = {sid for sid, _ in rows}
    for sid in [x for x in b.sheets if x not in kept]:
        del b.sheets[sid]
    b.by_name = {}
    for sid, name in rows:
        if sid not in b.sheets:
            b.add_sheet(sid, name)
        b.sheets[sid].name = name
        b.by_name[name.lower()] = sid
    b.names = {
        name.upper(): (sid, (r1, c1, r2, c2))
        for name, sid, r1, c1, r2, c2 in read(s, _NAMES, {"wb": b.workbook_id})
    }
    b.relink_all()


def book(s: Session, workbook_id: int) -> Book:
    """The session's book of a workbook, on first use: a fork of the world's shelved book
    while the database holds its state (`shelf`), else a copy of the world's initial
    book while no sheets row changed since the world was seeded or reset (the change log
    says so), else loaded from the database."""
    books = _books(s)
    found = books.get(workbook_id)
    if found is None:
        found = books[workbook_id] = shelf.fetch(s, workbook_id, lambda: _fresh(s, workbook_id))
        found.today = today_serial(s)
    return found


def _fresh(s: Session, workbook_id: int) -> Book:
    return _initial_copy(s, workbook_id) or load(s, workbook_id)


_UNTOUCHED = "SELECT 1 FROM og_change WHERE tbl LIKE 'sheets%' LIMIT 1"


def _initial_copy(s: Session, workbook_id: int) -> Book | None:
    """A fork of the world's cached initial book, if the sheets are as seeded."""
    shared = s.info.get("directory")
    if shared is None or s.get_bind().dialect.name != "sqlite":
        return None
    cur = cursor(s)
    try:
        cur.execute(_UNTOUCHED)
    except Exception:  # a database without the change log
        return None
    if cur.fetchone() is not None:
        return None
    initial = shared.setdefault("sheets.initial", {})
    if workbook_id not in initial:
        initial[workbook_id] = load(s, workbook_id)
    b = initial[workbook_id].fork()
    b.today = today_serial(s)
    return b


@functools.cache
def _delete() -> Any:
    return _CELL.delete().where(_CELL.c.id == bindparam("_id"))


def park(s: Session, cell_ids: list[int]) -> None:
    """Move stored cells off the grid (row ``-id``, a place no other cell has) before
    `save` writes their new places: a cell is unique per address, and cells shifting
    or sorting past one another would otherwise collide half-way through the writes."""
    if cell_ids:
        m = mark(s)
        cursor(s).executemany(
            f"UPDATE sheets_cell SET row = -id WHERE id = {m}", [[i] for i in cell_ids]
        )


def _bulk_update(s: Session, updates: list[dict[str, Any]]) -> None:
    """UPDATE many cell rows in one DB-API executemany (an edit's dozen rows too: through
    SQLAlchemy they cost a tenth of a millisecond more)."""
    m = mark(s)
    sql = f"UPDATE sheets_cell SET {', '.join(f'{c} = {m}' for c in _COLS)} WHERE id = {m}"
    cursor(s).executemany(sql, [[u[f"v_{c}"] for c in _COLS] + [u["_id"]] for u in updates])


def save(s: Session, b: Book) -> int:
    """Write the cells `b` changed since the last save; returns how many rows changed."""
    s.flush()
    conn = s.connection()
    updates, inserts, new_states, deletes = [], [], [], [{"_id": i} for i in b.removed]
    for sid, row, col in b.dirty:
        sheet = b.sheets.get(sid)
        state = sheet.cells.get((row, col)) if sheet else None
        if state is None:
            continue
        if state.input is None and state.fmt is None and state.value is None:
            if state.id is not None:
                deletes.append({"_id": state.id})
            del sheet.cells[(row, col)]  # type: ignore[union-attr]
            continue
        values = {
            "row": row,
            "col": col,
            "input": state.input,
            "fmt": state.fmt,
            "spill": state.spill,
            **columns_of(state.value),
        }
        if state.id is None:
            inserts.append({"sheet_id": sid, **values})
            new_states.append(state)
        else:
            updates.append({"_id": state.id, **{f"v_{k}": v for k, v in values.items()}})
    if deletes:
        conn.execute(_delete(), deletes)
    if updates:
        _bulk_update(s, updates)
    if inserts:
        stmt = insert(_CELL).returning(_CELL.c.id, sort_by_parameter_order=True)
        for state, (new_id,) in zip(new_states, conn.execute(stmt, inserts), strict=True):
            state.id = new_id
    _written(s, b)
    return len(updates) + len(inserts) + len(deletes)


def _written(s: Session, b: Book) -> None:
    """The book holds what the database now does: nothing is left to write, and the
    session's memo and the world's shelf are told."""
    b.dirty.clear()
    b.removed.clear()
    memo.changed(s, Cell)
    shelf.saved(s, b.workbook_id)
