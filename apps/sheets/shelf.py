"""Loaded workbooks shared by the sessions of one world, so that a page or an API call
does not read thousands of cells and rebuild the formula graph on every request.

A shelved book is a snapshot nobody changes: a session gets a fork of it (copy on
write, `Book.fork`). It is taken only while the database still holds the state it was
shelved at, checked by one cheap read per request, the workbook's *stamp*:

- the world's `generation` (bumped as a reset or rewind replaces the database, when
  change ids start again from the seeded ones), read before the database;
- the id of the workbook's latest `sheets_change` row: every operation that changes
  a workbook records one (`history.record`), in the transaction that writes it;
- on PostgreSQL, also the workbook row's ``xmin`` (the transaction that last wrote it:
  `record` updates the row), which no later transaction repeats, whichever worker
  process wrote it and however often the world was reset.

A session shelves a book it loaded before writing anything in its transaction
(`memo.wrote`), and a request's session, once committed, the books it saved (holding
the workbook's turn); a session that has written reads no shelved book until it
commits or rolls back. The shelf is locked
for threads and holds at most `SIZE` workbooks per world (least recently used go).
``OFFICEGYM_SHELF_CHECK=1`` compares every shelved book taken with a fresh load (tests).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.sheets.engine import Book
from officegym.db import cursor

__all__ = ["SIZE", "Shelf", "fetch", "same", "saved", "stamp"]

SIZE = 4  # workbooks per world (an env process may hold many worlds)
Stamp = tuple[Any, ...]
_KEY = "sheets.shelf"  # in the world's directory (shared by its sessions)
_PENDING = "sheets.shelf.pending"  # session.info: books to shelve once the commit is done
_SAVED = "sheets.shelf.saved"  # session.info: workbooks whose books the transaction saved
_BOOKS = "sheets.books"  # session.info: a request's books (`store`)
_CHECK = os.environ.get("OFFICEGYM_SHELF_CHECK") == "1"


class Shelf:
    """Snapshots of books by workbook id, each with the stamp it was taken at."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._books: OrderedDict[int, tuple[Stamp, Book]] = OrderedDict()

    def take(self, workbook_id: int, stamp: Stamp) -> Book | None:
        """A fork of the book shelved at `stamp`, else None."""
        with self._lock:
            found = self._books.get(workbook_id)
            if found is None or found[0] != stamp:
                return None
            self._books.move_to_end(workbook_id)
        return found[1].fork()  # the snapshot never changes: forked outside the lock

    def put(self, workbook_id: int, stamp: Stamp, book: Book) -> None:
        """Shelve a snapshot of `book`, which must hold the database's state at `stamp`;
        `book` stays its session's, copying a cell before it next changes one."""
        snapshot = book.fork()  # `book` copies a cell it shares with it before changing it
        with self._lock:
            self._books[workbook_id] = (stamp, snapshot)
            self._books.move_to_end(workbook_id)
            while len(self._books) > SIZE:
                self._books.popitem(last=False)

    def __len__(self) -> int:
        return len(self._books)


def _shelf(s: Session) -> Shelf | None:
    shared = s.info.get("directory")
    if shared is None or s.info.get("world") is None:
        return None  # a session not opened by a World (a grader's, a test's)
    found = shared.get(_KEY)
    if found is None:
        found = shared.setdefault(_KEY, Shelf())
    return found


_SQLITE = "SELECT max(id) FROM sheets_change WHERE workbook_id = ?"
_SERVER = (
    "SELECT w.xmin::text, (SELECT max(c.id) FROM sheets_change c WHERE c.workbook_id = w.id) "
    "FROM sheets_workbook w WHERE w.id = %s"
)


def stamp(s: Session, workbook_id: int) -> Stamp | None:
    """The workbook's stamp as the session's transaction sees it (None: not shelvable)."""
    generation = s.info["world"].generation  # before the database is read
    cur = cursor(s)
    dialect = s.get_bind().dialect.name
    if dialect == "sqlite":
        cur.execute(_SQLITE, (workbook_id,))
    elif dialect == "postgresql":
        cur.execute(_SERVER, (workbook_id,))
    else:
        return None
    row = cur.fetchone()
    if row is None or row[-1] is None:
        return None
    return (generation, *row)


def fetch(s: Session, workbook_id: int, load: Callable[[], Book]) -> Book:
    """The workbook's book for `s`: a fork of the shelved one if the database still holds
    its state, else `load()` (shelved when the session has not written yet)."""
    shelf = _shelf(s)
    if shelf is None or memo.wrote(s):
        return load()
    at = stamp(s, workbook_id)
    if at is None:
        return load()
    found = shelf.take(workbook_id, at)
    if found is not None:
        if _CHECK:
            _check(found, load())
        return found
    book = load()
    shelf.put(workbook_id, at, book)
    return book


def saved(s: Session, workbook_id: int) -> None:
    """The session's transaction saved the workbook's book (`store.save`): it holds the
    workbook's turn (`access.require_edit`), so its book is what the database will hold."""
    s.info.setdefault(_SAVED, set()).add(workbook_id)


@event.listens_for(Session, "before_commit")
def _before_commit(s: Session) -> None:
    """Stamp the books the transaction saved (read inside it), to shelve once committed.
    Only a request's books: a tool runner's session keeps its books across transactions,
    trusting that nobody else writes its world, which a shared shelf must not trust."""
    s.info.pop(_PENDING, None)
    done = s.info.pop(_SAVED, None)
    books = s.info.get(_BOOKS)
    if not done or not books or s.info.get("memo") is not None or _shelf(s) is None:
        return
    pending = []
    for workbook_id in done:
        book = books.get(workbook_id)
        if book is None or book.dirty or book.removed:
            continue  # dropped, or changed and not saved: not what the database holds
        at = stamp(s, workbook_id)
        if at is not None:
            pending.append((workbook_id, at, book))
    s.info[_PENDING] = pending


@event.listens_for(Session, "after_commit")
def _after_commit(s: Session) -> None:
    pending = s.info.pop(_PENDING, None)
    shelf = _shelf(s)
    if pending and shelf is not None:
        for workbook_id, at, book in pending:
            shelf.put(workbook_id, at, book)


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(s: Session, _previous: Any) -> None:
    s.info.pop(_PENDING, None)
    s.info.pop(_SAVED, None)


def same(a: Book, b: Book) -> bool:
    """Whether two books hold the same sheets, names and stored cells (values typed)."""
    return _content(a) == _content(b)


def _content(b: Book) -> Any:
    sheets = {
        sid: (
            sh.name,
            {
                k: (st.id, st.input, type(st.value).__name__, repr(st.value), st.fmt, st.spill)
                for k, st in sh.cells.items()
            },
        )
        for sid, sh in b.sheets.items()
    }
    return sheets, b.names


def _check(found: Book, loaded: Book) -> None:
    if not same(found, loaded):
        raise AssertionError(f"the shelved book of workbook {loaded.workbook_id} is stale")
