"""World look-ups and allowances shared by the spreadsheet templates.

The index holds each workbook's id, owner, editors and sheets (read once per world);
cell values come from the service's book of the template's read-only session, which
keeps it for the session's life. Allowances name what a sheets task may change: a range
of cells of a sheet, never the whole sheet (their values recalculated anywhere in the
workbook), the change history, the workbook's modification time.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Share, Sheet, Workbook
from officegym.apps.sheets.refs import parse_area
from officegym.changes import RowChange
from officegym.tasks.checks import Allow, GradeContext, NewRowId, Same, Within

__all__ = [
    "BUDGETS",
    "ORDERS",
    "PLAN",
    "REGIONAL",
    "Book",
    "allow_book",
    "allow_cells",
    "allow_new_sheet",
    "book_of",
    "cells_in",
    "grid",
    "sheets_index",
]

VALUE_FIELDS = frozenset({"kind", "num", "text"})
# Seeded workbooks named after the world's year or the last one ("Orders 2025", "FY2026
# Team Budgets" in a world dated 2026): templates name them by these keys and read their
# real names from `Book.name`.
ORDERS = "Orders <last year>"
REGIONAL = "Regional Sales <last year>"
BUDGETS = "FY<year> Team Budgets"
PLAN = "Headcount Plan <year>"
_DATED = {
    ORDERS: re.compile(r"^Orders \d{4}$"),
    REGIONAL: re.compile(r"^Regional Sales \d{4}$"),
    BUDGETS: re.compile(r"^FY\d{4} Team Budgets$"),
    PLAN: re.compile(r"^Headcount Plan \d{4}$"),
}


@dataclass(frozen=True)
class Book:
    """A workbook as templates see it."""

    id: int
    name: str
    owner: Any  # org_person row
    editors: tuple[Any, ...]  # owner first, then people shared as editor (and link editors: all)
    sheets: dict[str, int]  # name -> sheet id, in tab order


def sheets_index(w: Session) -> dict[str, Book]:
    return _index(w.get_bind())


@functools.lru_cache(maxsize=8)
def _index(engine: Engine) -> dict[str, Book]:
    with Session(engine) as w:
        people = {p.id: p for p in w.execute(select(Person.__table__).order_by(Person.id))}
        out = {}
        for wb in w.scalars(select(Workbook).order_by(Workbook.id)):
            shared = w.scalars(
                select(Share.person_id).where(Share.workbook_id == wb.id, Share.role == "editor")
            )
            editors = [people[wb.owner_id], *(people[i] for i in sorted(shared))]
            if wb.link_access == "editor":  # everyone in the company may edit it
                editors += [p for i, p in people.items() if i not in {e.id for e in editors}]
            tabs = w.scalars(
                select(Sheet).where(Sheet.workbook_id == wb.id).order_by(Sheet.position)
            )
            out[wb.name] = Book(
                wb.id, wb.name, people[wb.owner_id], tuple(editors), {t.name: t.id for t in tabs}
            )
    return out


def book_of(w: Session, name: str) -> Book:
    """The workbook `name` of the initial world (a key of `_DATED`, such as `ORDERS`: that
    workbook, whatever its year); `LookupError` if the world has none."""
    index = sheets_index(w)
    if name in _DATED:
        name = next((n for n in index if _DATED[name].match(n)), name)
    found = index.get(name)
    if found is None:
        raise LookupError(f"the world has no workbook {name!r} for this template")
    return found


def grid(w: Session, book: Book, ref: str) -> list[list[Any]]:
    """Computed values of a range in the initial world (blanks as None)."""
    area = parse_area(ref)
    sid = book.sheets[area.sheet] if area.sheet else next(iter(book.sheets.values()))
    data = sheets.book(w, book.id).sheets[sid]
    return [
        [data.values.get((r, c)) for c in range(area.c1, area.c2 + 1)]
        for r in range(area.r1, area.r2 + 1)
    ]


def used_rows(w: Session, book: Book, sheet: str) -> int:
    return sheets.book(w, book.id).sheets[book.sheets[sheet]].max_row


def allow_book(book: Book) -> list[Allow]:
    """Every write records history rows and touches the workbook's modification time."""
    return [
        Allow("sheets_change", where={"workbook_id": book.id}),
        Allow.update("sheets_workbook", book.id, {"updated_at"}),
    ]


def allow_values(book: Book) -> list[Allow]:
    """Cells anywhere in the workbook whose computed value changed by recalculation."""
    return [
        Allow("sheets_cell", kinds=("update",), where={"sheet_id": sid}, fields=VALUE_FIELDS)
        for sid in book.sheets.values()
    ]


def cells_in(area: str) -> dict[str, Within]:
    """A `where` for the cells of an A1 range (`"A2:E9"`, `"J:J"` is every row)."""
    a = parse_area(area)
    return {"row": Within(a.r1, a.r2), "col": Within(a.c1, a.c2)}


def allow_cells(
    sheet_id: int | NewRowId, area: str, kinds: Iterable[str] = ("insert", "update", "delete")
) -> list[Allow]:
    """Any change to the cells of `area` (A1) on one sheet: the range the goal leaves to
    the task, so a write beyond it (a stray cell below the data) is damage."""
    where = {"sheet_id": sheet_id, **cells_in(area)}
    return [Allow("sheets_cell", kinds=tuple(kinds), where=where)]


@dataclass(frozen=True)
class AllowOnNewSheets(Allow):
    """Any change to the cells of `area` (A1) on sheets the episode created (in a workbook
    it made)."""

    table: str = "sheets_cell"
    kinds: tuple[str, ...] = ("insert", "update", "delete")
    sheet_ids: frozenset[int] = frozenset()
    area: str = "A1"

    def resolved(self, g: GradeContext) -> Allow:
        made = frozenset(r["id"] for r in g.new_rows("sheets_sheet", {}))
        return dataclasses.replace(self, sheet_ids=made)

    def matches(self, change: RowChange) -> bool:
        inside = cells_in(self.area)
        return (
            change.table == self.table
            and change.kind in self.kinds
            and change.row.get("sheet_id") in self.sheet_ids
            and all(w.matches(change.row.get(k)) for k, w in inside.items())
        )


def allow_new_workbook(owner_id: int, name: str, area: str) -> tuple[NewRowId, list[Allow]]:
    """A workbook the task makes (owned by the persona, by name), its sheets, the cells of
    `area` on them, its history."""
    where = {"owner_id": owner_id, "name": Same(name)}
    made = NewRowId("sheets_workbook", where)
    return made, [
        Allow("sheets_workbook", where=where, limit=1),
        Allow("sheets_sheet", where={"workbook_id": made}),
        Allow("sheets_change", where={"workbook_id": made}),
        AllowOnNewSheets(area=area),
    ]


def allow_new_sheet(book: Book, name: str, area: str) -> tuple[NewRowId, list[Allow]]:
    """A sheet the task adds (by name) and the cells of `area` (A1) on it."""
    made = NewRowId("sheets_sheet", {"workbook_id": book.id, "name": Same(name)})
    where = {"workbook_id": book.id, "name": Same(name)}
    return made, [Allow("sheets_sheet", where=where, limit=1), *allow_cells(made, area)]
