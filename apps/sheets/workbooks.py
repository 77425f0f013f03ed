"""Workbooks, their sheets, sharing and named ranges: creating, renaming, deleting.

Renaming a sheet rewrites the formulas that name it; deleting one turns references to
it into #REF!, as spreadsheets do. Every change lands in the history.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.org.models import Person
from officegym.apps.sheets import moves, pivots, store
from officegym.apps.sheets.access import (
    find_workbook,
    forget_workbooks,
    require_edit,
    require_owner,
    visible_ids,
)
from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.history import record
from officegym.apps.sheets.models import (
    LINK_ACCESS,
    ROLES,
    Cell,
    Merge,
    NamedRange,
    Pivot,
    Share,
    Sheet,
    Workbook,
)
from officegym.apps.sheets.places import NAME_RE, locate, sheet_named, sheets_of
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.writes import delete_row, insert_row, unique_or, update_row

__all__ = [
    "add_sheet",
    "create_workbook",
    "define_name",
    "delete_name",
    "delete_sheet",
    "delete_workbook",
    "find_workbook",
    "freeze_rows",
    "list_workbooks",
    "move_sheet",
    "next_workbook_id",
    "rename_sheet",
    "rename_workbook",
    "set_link_access",
    "share_workbook",
    "shares_of",
]

MAX_SHEETS = 200


def _clean_name(name: str, what: str, limit: int = 100) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise Invalid(f"a {what} needs a name")
    if len(clean) > limit:
        raise Invalid(f"a {what} name has at most {limit} characters")
    return clean


def _sheet_name(name: str) -> str:
    clean = _clean_name(name, "sheet")
    bad = set("[]*?/\\:") & set(clean)
    if bad or clean.startswith("'"):
        raise Invalid(
            f"a sheet name may not contain {' '.join(sorted(bad)) or chr(39)} (got {name!r})"
        )
    return clean


def next_workbook_id(s: Session) -> int:
    """The id the next workbook created will get (for reference steps that name a workbook
    their own earlier step makes)."""
    return (s.scalar(select(func.max(Workbook.id))) or 0) + 1


def list_workbooks(s: Session, actor: Person, *, query: str | None = None) -> list[Workbook]:
    """Workbooks the actor can open, most recently changed first."""
    ids = visible_ids(s, actor)
    stmt = select(Workbook).where(Workbook.id.in_(ids))
    if query:
        stmt = stmt.where(Workbook.name.ilike(f"%{query.strip()}%"))
    return list(s.scalars(stmt.order_by(Workbook.updated_at.desc(), Workbook.id.desc())))


def create_workbook(
    s: Session, actor: Person, name: str, sheets: list[str] | None = None
) -> Workbook:
    """A new workbook owned by the actor, with the given sheets (default one 'Sheet1')."""
    forget_workbooks(s)
    when = now(s)
    wb = insert_row(
        s,
        Workbook,
        name=_clean_name(name, "workbook", 120),
        owner_id=actor.id,
        link_access="none",
        created_at=when,
        updated_at=when,
    )
    names = sheets or ["Sheet1"]
    if len({n.strip().lower() for n in names}) != len(names):
        raise Invalid("sheet names must differ")
    for i, sheet in enumerate(names):
        insert_row(s, Sheet, workbook_id=wb.id, name=_sheet_name(sheet), position=i, frozen_rows=0)
    record(s, actor, wb, "create_workbook", wb.name)
    return wb


def rename_workbook(s: Session, actor: Person, wb: Workbook, name: str) -> Workbook:
    forget_workbooks(s)
    require_edit(s, actor, wb)
    old = wb.name
    update_row(s, wb, name=_clean_name(name, "workbook", 120))
    record(s, actor, wb, "rename_workbook", wb.name, {"old": old})
    return wb


def delete_workbook(s: Session, actor: Person, wb: Workbook) -> None:
    """Delete a workbook and everything in it (owner only)."""
    forget_workbooks(s)
    require_owner(s, actor, wb, "delete it")
    sids = [x.id for x in sheets_of(s, wb)]
    record(s, actor, wb, "delete_workbook", wb.name)
    s.flush()
    for model in (Pivot, NamedRange):
        s.execute(delete(model).where(model.workbook_id == wb.id))
    s.execute(delete(Cell).where(Cell.sheet_id.in_(sids)))
    s.execute(delete(Merge).where(Merge.sheet_id.in_(sids)))
    s.execute(delete(Sheet).where(Sheet.workbook_id == wb.id))
    s.execute(delete(Share).where(Share.workbook_id == wb.id))
    for model in (Pivot, Sheet):  # bulk deletes: drop what the session remembers of them
        memo.changed(s, model)
    delete_row(s, wb)
    store.forget(s, wb.id)


def shares_of(s: Session, wb: Workbook) -> list[tuple[Person, str]]:
    stmt = (
        select(Person, Share.role)
        .join(Share, Share.person_id == Person.id)
        .where(Share.workbook_id == wb.id)
    )
    return [(p, r) for p, r in s.execute(stmt.order_by(Person.name))]


def share_workbook(
    s: Session, actor: Person, wb: Workbook, person: Person, role: str | None
) -> str:
    """Give `person` viewer or editor access, or (role None) take it away. Editors share
    too; only the owner can make someone an editor or remove an editor."""
    mine = require_edit(s, actor, wb)
    if person.id == wb.owner_id:
        raise Conflict(f"{person.name} owns {wb.name!r}")
    if role is not None and role not in ROLES:
        raise Invalid(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    row = s.scalar(select(Share).where(Share.workbook_id == wb.id, Share.person_id == person.id))
    if mine != "owner" and (role == "editor" or (row is not None and row.role == "editor")):
        raise Forbidden("only the owner can add or remove editors", code="not_owner")
    if role is None:
        if row is None:
            raise NotFound(f"{wb.name!r} is not shared with {person.name}")
        delete_row(s, row)
    elif row is None:
        insert_row(s, Share, workbook_id=wb.id, person_id=person.id, role=role)
    elif row.role == role:
        raise Conflict(
            f"{person.name} is already a{'n' if role == 'editor' else ''} {role} of {wb.name!r}"
        )
    else:
        update_row(s, row, role=role)
    record(s, actor, wb, "share", person.handle, {"role": role})
    return role or "removed"


def set_link_access(s: Session, actor: Person, wb: Workbook, access: str) -> None:
    """Let everyone in the company view or edit (or nobody beyond the shares); owner only."""
    forget_workbooks(s)
    require_owner(s, actor, wb, "change link access")
    if access not in LINK_ACCESS:
        raise Invalid(f"link access must be one of {', '.join(LINK_ACCESS)}")
    update_row(s, wb, link_access=access)
    record(s, actor, wb, "link_access", access)


def add_sheet(
    s: Session, actor: Person, wb: Workbook, name: str, *, position: int | None = None
) -> Sheet:
    """A new empty sheet, last unless `position` (0-based) says where."""
    require_edit(s, actor, wb)
    clean = _sheet_name(name)
    sheets = sheets_of(s, wb)
    if any(x.name.lower() == clean.lower() for x in sheets):
        raise Conflict(f"{wb.name!r} already has a sheet named {clean!r}")
    if len(sheets) >= MAX_SHEETS:
        raise Invalid(f"a workbook holds at most {MAX_SHEETS} sheets")
    at = len(sheets) if position is None else max(0, min(position, len(sheets)))
    b = store.book(s, wb.id)  # before the insert: an untouched workbook forks its cached copy
    for x in sheets[at:]:
        update_row(s, x, position=x.position + 1)
    with unique_or(Conflict(f"{wb.name!r} already has a sheet named {clean!r}")):
        sheet = insert_row(s, Sheet, workbook_id=wb.id, name=clean, position=at, frozen_rows=0)
    _reload(s, wb, lambda: _readers_of(b, sheet.id))
    record(s, actor, wb, "add_sheet", clean, sheet_id=sheet.id)
    return sheet


def _readers_of(b: Book, sheet_id: int) -> list[Key]:
    """Formulas that read a sheet: after it is added, the only ones that can change
    (they showed #REF! until it existed)."""
    return [k for k, areas in b.reads.items() if any(t == sheet_id for t, _ in areas)]


def rename_sheet(s: Session, actor: Person, wb: Workbook, sheet: Sheet, name: str) -> Sheet:
    require_edit(s, actor, wb)
    clean = _sheet_name(name)
    if any(x.name.lower() == clean.lower() and x.id != sheet.id for x in sheets_of(s, wb)):
        raise Conflict(f"{wb.name!r} already has a sheet named {clean!r}")
    old = sheet.name
    b = store.book(s, wb.id)
    moves.rename_references(b, old, clean)
    with unique_or(Conflict(f"{wb.name!r} already has a sheet named {clean!r}")):
        update_row(s, sheet, name=clean)
    store.save(s, b)
    _reload(s, wb)
    record(s, actor, wb, "rename_sheet", clean, {"old": old}, sheet_id=sheet.id)
    return sheet


def move_sheet(s: Session, actor: Person, wb: Workbook, sheet: Sheet, index: int) -> None:
    """Move a sheet's tab to `index` (0-based, clamped to the tabs), the others keeping
    their order; formulas are unaffected (they name sheets, not places)."""
    require_edit(s, actor, wb)
    others = [x for x in sheets_of(s, wb) if x.id != sheet.id]
    at = max(0, min(index, len(others)))
    if sheets_of(s, wb).index(sheet) == at:
        return
    for i, x in enumerate([*others[:at], sheet, *others[at:]]):
        if x.position != i:
            update_row(s, x, position=i)
    record(s, actor, wb, "move_sheet", sheet.name, {"index": at}, sheet_id=sheet.id)


def delete_sheet(s: Session, actor: Person, wb: Workbook, sheet: Sheet) -> None:
    """Delete a sheet (a workbook keeps at least one); formulas naming it show #REF!."""
    require_edit(s, actor, wb)
    sheets = sheets_of(s, wb)
    if len(sheets) == 1:
        raise Conflict("a workbook needs at least one sheet")
    if s.scalar(
        select(func.count())
        .select_from(Pivot)
        .where((Pivot.source_sheet_id == sheet.id) | (Pivot.target_sheet_id == sheet.id))
    ):
        raise Conflict(f"a pivot table uses {sheet.name!r}; delete the pivot first")
    b = store.book(s, wb.id)
    moves.rename_references(b, sheet.name, None, skip_sheet=sheet.id)
    store.save(s, b)
    s.execute(delete(Cell).where(Cell.sheet_id == sheet.id))
    s.execute(delete(Merge).where(Merge.sheet_id == sheet.id))
    s.execute(delete(NamedRange).where(NamedRange.sheet_id == sheet.id))
    delete_row(s, sheet)
    for i, x in enumerate(x for x in sheets if x.id != sheet.id):
        if x.position != i:
            update_row(s, x, position=i)
    _reload(s, wb)
    record(s, actor, wb, "delete_sheet", sheet.name, sheet_id=sheet.id)


def freeze_rows(s: Session, actor: Person, wb: Workbook, sheet: Sheet, rows: int) -> None:
    require_edit(s, actor, wb)
    if not 0 <= rows <= 50:
        raise Invalid("freeze between 0 and 50 rows")
    update_row(s, sheet, frozen_rows=rows)
    record(s, actor, wb, "freeze_rows", sheet.name, {"rows": rows}, sheet_id=sheet.id)


def freeze_cols(s: Session, actor: Person, wb: Workbook, sheet: Sheet, cols: int) -> None:
    """Keep the first `cols` columns in view while the grid scrolls right."""
    require_edit(s, actor, wb)
    if not 0 <= cols <= 26:
        raise Invalid("freeze between 0 and 26 columns")
    update_row(s, sheet, frozen_cols=cols)
    record(s, actor, wb, "freeze_cols", sheet.name, {"columns": cols}, sheet_id=sheet.id)


def _reload(s: Session, wb: Workbook, affected: Callable[[], list[Key]] | None = None) -> None:
    """Sheets or names changed: update the book's, rebuild its graph, recalculate the
    formulas `affected()` names after the rebuild (every formula if None) and the pivot
    tables whose source they changed."""
    b = store.book(s, wb.id)
    store.resync(s, b)
    if affected is None:
        b.recalc_all()
    else:
        b.recalc(affected())
    pivots.refresh_fed_by(s, wb, b, list(b.dirty))  # formulas in a pivot's source moved
    store.save(s, b)


def define_name(s: Session, actor: Person, wb: Workbook, name: str, ref: str) -> NamedRange:
    """Name a range (``Revenue`` -> ``Data!C2:C500``) for formulas to use; redefining a
    name moves it."""
    require_edit(s, actor, wb)
    if not NAME_RE.match(name) or _looks_like_cell(name) or name.upper() in ("TRUE", "FALSE"):
        raise Invalid(
            f"{name!r} is not a valid name: use letters, digits, _ and ., starting with a "
            "letter, and not a cell address"
        )
    sheet, area = locate(s, wb, ref)
    b = store.book(s, wb.id)  # before the write: an untouched workbook forks its cached copy
    row = s.scalar(
        select(NamedRange).where(
            NamedRange.workbook_id == wb.id, func.lower(NamedRange.name) == name.lower()
        )
    )
    values = {"sheet_id": sheet.id, "r1": area.r1, "c1": area.c1, "r2": area.r2, "c2": area.c2}
    if row is None:
        row = insert_row(s, NamedRange, workbook_id=wb.id, name=name, **values)
    else:
        update_row(s, row, name=name, **values)
    _reload(s, wb, lambda: list(b.name_users))  # only formulas that use names can change
    record(s, actor, wb, "define_name", name, {"range": area.label()}, sheet_id=sheet.id)
    return row


def delete_name(s: Session, actor: Person, wb: Workbook, name: str) -> None:
    require_edit(s, actor, wb)
    row = s.scalar(
        select(NamedRange).where(
            NamedRange.workbook_id == wb.id, func.lower(NamedRange.name) == name.lower()
        )
    )
    if row is None:
        raise NotFound(f"{wb.name!r} has no named range {name!r}")
    b = store.book(s, wb.id)
    delete_row(s, row)
    _reload(s, wb, lambda: list(b.name_users))
    record(s, actor, wb, "delete_name", name)


def _looks_like_cell(name: str) -> bool:
    import re

    return re.fullmatch(r"[A-Za-z]{1,3}\d+|R\d*C\d*", name, re.IGNORECASE) is not None


_ = (get, sheet_named)
