"""Undo and redo of a person's grid edits, as Ctrl+Z and Ctrl+Y do in Sheets: the
workbook's, not the text box's.

The grid's routes run each edit inside `track`, which notes every cell the edit changes
(the `Book`'s journal: input and format before and after) and keeps them as one
`UndoStep` of that person in that workbook; typed cells, pastes, cut and move (a paste
and a clear, one step), clears, fills, sorts, formats. `undo` puts the latest step's
cells back as they were and recalculates their dependants; `redo` does it again; both
are recorded in the history ("Undid: Typed into Orders!M2"). A step is undone only if
its cells still hold what it left (someone else may have changed one since): otherwise
nothing changes and the refusal names the cell. Edits the grid cannot undo (inserting
or deleting rows and columns) leave a step without cells where undo stops and says
so. The Sheets API and the tools have no undo, as Google's API has none.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.cells import settle
from officegym.apps.sheets.describe import VERBS
from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.history import MAX_DETAIL, record
from officegym.apps.sheets.models import UndoStep, Workbook
from officegym.apps.sheets.refs import Area, a1
from officegym.errors import Conflict, Invalid

__all__ = ["redo", "track", "undo"]

# edits that move cells of the whole sheet: noted by comparing the sheet before and after
WHOLE_SHEET = frozenset({"sort", "dedupe"})
# edits the grid cannot undo: undo stops at them and says so
BARRIERS = {
    "insert_rows": "inserting rows",
    "delete_rows": "deleting rows",
    "insert_cols": "inserting columns",
    "delete_cols": "deleting columns",
}
# what the history calls the grid's edits that are not cell writes
NAMES = {"sort": "Sorted", "dedupe": "Removed duplicates in", "format": "Formatted",
         "move": "Moved", "paste": "Pasted into"}  # fmt: skip
Held = tuple[str | None, str | None]  # a cell's input and format


def _held(b: Book, key: Key) -> Held:
    sheet = b.sheets.get(key[0])
    state = sheet.cells.get(key[1:]) if sheet is not None else None
    return (state.input, state.fmt) if state is not None else (None, None)


def _sheet_cells(b: Book, sid: int | None) -> dict[Key, Held]:
    if sid is None or sid not in b.sheets:
        return {}
    return {(sid, *k): (st.input, st.fmt) for k, st in b.sheets[sid].cells.items()}


def _compared(before: Book, after: Book) -> dict[Key, Held]:
    """What every cell that differs between two books held in `before`."""
    out: dict[Key, Held] = {}
    for sid in before.sheets.keys() | after.sheets.keys():
        old, new = _sheet_cells(before, sid), _sheet_cells(after, sid)
        for key in old.keys() | new.keys():
            if old.get(key, (None, None)) != new.get(key, (None, None)):
                out[key] = old.get(key, (None, None))
    return out


@contextmanager
def track(
    s: Session, actor: Person, wb: Workbook, action: str, target: str, *, sheet_id: int | None
) -> Iterator[None]:
    """Run a grid edit (the block) and keep the cells it changed as one undo step of
    `actor`; `action` and `target` name it as the history does (``write``,
    ``Orders!M2``). A block that raises keeps nothing (its edit changed nothing)."""
    require_edit(s, actor, wb)  # the workbook's turn first: on PostgreSQL, cells read afresh
    b = store.book(s, wb.id)
    whole = _sheet_cells(b, sheet_id) if action in WHOLE_SHEET else {}
    b.journal = {}
    try:
        yield
        journal = b.journal
    finally:
        b.journal = None
    if action in BARRIERS:
        return _push(s, actor, wb, action, target, None)
    after = store.book(s, wb.id)
    if after is not b:  # the edit read the cells afresh (PostgreSQL): compare the two books
        journal = _compared(b, after)
        b = after
    for key, held in whole.items():
        journal.setdefault(key, held)
    for key in _sheet_cells(b, sheet_id) if whole else ():
        journal.setdefault(key, (None, None))
    cells = [[*k, *old, *_held(b, k)] for k, old in journal.items() if old != _held(b, k)]
    if cells:
        _push(s, actor, wb, action, target, cells)
    return None


def _push(
    s: Session, actor: Person, wb: Workbook, action: str, target: str, cells: list | None
) -> None:
    """Keep a new step; the steps undone before it can no longer be redone. (Core
    statements on the session's connection: an edit is timed in milliseconds, and the
    ORM's unit of work would add one.)"""
    table: Table = UndoStep.__table__  # type: ignore[assignment]
    conn = s.connection()
    mine = (table.c.workbook_id == wb.id) & (table.c.actor_id == actor.id)
    conn.execute(delete(table).where(mine & table.c.undone.is_(True)))
    row = {"workbook_id": wb.id, "actor_id": actor.id, "action": action, "target": target[:200]}
    conn.execute(insert(table).values(**row, cells=cells, undone=False))


def _words(step: UndoStep) -> str:
    verb = NAMES.get(step.action) or VERBS.get(step.action) or step.action.replace("_", " ")
    return f"{verb} {step.target}"


def _latest(s: Session, actor: Person, wb: Workbook, undone: bool) -> UndoStep | None:
    """The step undo takes (the latest not undone) or redo does again (the first undone)."""
    mine = (UndoStep.workbook_id == wb.id) & (UndoStep.actor_id == actor.id)
    order = UndoStep.id.asc() if undone else UndoStep.id.desc()
    stmt = select(UndoStep).where(mine & UndoStep.undone.is_(undone)).order_by(order).limit(1)
    return s.scalars(stmt).first()


def undo(s: Session, actor: Person, wb: Workbook) -> tuple[str, Area]:
    """Undo `actor`'s latest grid edit of `wb` not yet undone; returns what was undone, in
    words, and the range it covered (its sheet in `Area.sheet`)."""
    require_edit(s, actor, wb)
    step = _latest(s, actor, wb, undone=False)
    if step is None:
        raise Invalid("nothing to undo: no edit of yours in this workbook is left to undo")
    if step.cells is None:
        what = BARRIERS.get(step.action, step.action)
        raise Invalid(
            f"the grid cannot undo {what} ({step.target}); undo stops there and nothing changed"
        )
    area = _put(s, actor, wb, step, back=True)
    step.undone = True
    s.flush()
    return _words(step), area


def redo(s: Session, actor: Person, wb: Workbook) -> tuple[str, Area]:
    """Do again the edit `undo` undid last; returns it in words and the range it covered."""
    require_edit(s, actor, wb)
    step = _latest(s, actor, wb, undone=True)
    if step is None or step.cells is None:
        raise Invalid("nothing to redo: redo follows an undo, before any new edit")
    area = _put(s, actor, wb, step, back=False)
    step.undone = False
    s.flush()
    return _words(step), area


def _put(s: Session, actor: Person, wb: Workbook, step: UndoStep, *, back: bool) -> Area:
    """Put the step's cells as they were before it (`back`) or after it, once every one
    still holds what the step (or its undo) left; recalculate, save, record."""
    b = store.book(s, wb.id)
    cells = step.cells or []
    for sid, r, c, *held in cells:
        if sid not in b.sheets:
            raise Conflict(f"the sheet of {a1(r, c)} was deleted since; nothing changed")
        expected = tuple(held[2:] if back else held[:2])
        if _held(b, (sid, r, c)) != expected:
            name = b.sheets[sid].name
            raise Conflict(f"{name}!{a1(r, c)} changed since that edit; nothing changed")
    keys: list[Key] = []
    for sid, r, c, *held in cells:
        text, fmt = held[:2] if back else held[2:]
        b.set_input(sid, r, c, text)
        b.set_format(sid, r, c, fmt)
        keys.append((sid, r, c))
    settle(s, wb, b, keys)
    for sheet_id in {k[0] for k in keys}:
        b.refit(sheet_id)  # the used range shrinks back too
    detail = [
        {"cell": a1(r, c), "before": (h[2] if back else h[0]), "after": (h[0] if back else h[2])}
        for _sid, r, c, *h in cells[:MAX_DETAIL]
    ]
    sid = cells[0][0]
    record(s, actor, wb, "undo" if back else "redo", _words(step), detail, sheet_id=sid)
    rows = [x[1] for x in cells if x[0] == sid]
    cols = [x[2] for x in cells if x[0] == sid]
    return Area(min(rows), min(cols), max(rows), max(cols), b.sheets[sid].name)
