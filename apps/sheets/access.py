"""Who may do what with a workbook, decided in one place (as in Google Sheets).

The owner does everything; people it is shared with as editors change cells, sheets,
names, pivots and sharing; viewers only read. A workbook's link access (`viewer` or
`editor`) gives that role to everyone in the company. A workbook a person cannot
open is, for them, not there (NotFound), as in the chat's private channels.
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.models import Share, Workbook
from officegym.db import get, read
from officegym.errors import Forbidden, Invalid, NotFound
from officegym.memo import forget, recall, watch

__all__ = [
    "Access",
    "find_workbook",
    "forget_workbooks",
    "require_edit",
    "require_owner",
    "role_of",
    "visible_ids",
]

Access = Literal["owner", "editor", "viewer"]
_SHARE = select(Share.role).where(
    Share.workbook_id == bindparam("wb"), Share.person_id == bindparam("p")
)
_RANK = {"viewer": 1, "editor": 2, "owner": 3}


def role_of(s: Session, actor: Person, wb: Workbook) -> Access | None:
    """The actor's access to a workbook, or None."""
    if wb.owner_id == actor.id:
        return "owner"
    shared = read(s, _SHARE, {"wb": wb.id, "p": actor.id}).scalar()
    best = max(
        (r for r in (shared, wb.link_access) if r in ("viewer", "editor")),
        key=_RANK.get,
        default=None,
    )
    return best  # type: ignore[return-value]


_VISIBLE = or_(
    Workbook.owner_id == bindparam("p"),
    Workbook.link_access != "none",
    Workbook.id.in_(select(Share.workbook_id).where(Share.person_id == bindparam("p"))),
)
_VISIBLE_IDS = select(Workbook.id).where(_VISIBLE).order_by(Workbook.id)
_NAMED = (
    select(Workbook.id)
    .where(_VISIBLE, Workbook.name.ilike(bindparam("name"), escape="\\"))
    .order_by(Workbook.id)
)


def visible_ids(s: Session, actor: Person) -> list[int]:
    """Ids of every workbook the actor can open, oldest first."""
    return list(read(s, _VISIBLE_IDS, {"p": actor.id}).scalars())


# A runner's session remembers look-ups; shares change them, and so do workbooks made,
# renamed, deleted or opened to the company (`forget_workbooks`), not every write's
# modification time.
watch("sheets.workbook", Share)


def forget_workbooks(s: Session) -> None:
    forget(s, "sheets.workbook")


def find_workbook(s: Session, actor: Person, ref: int | str) -> Workbook:
    """A workbook the actor can open, by id or exact name (any case); NotFound otherwise,
    Invalid naming the ids when several visible workbooks share the name."""
    key = (actor.id, ref)
    wb_id = recall(s, "sheets.workbook", key, lambda: _find_workbook(s, actor, ref).id)
    wb = get(s, Workbook, wb_id)
    if wb is None:  # deleted since it was remembered
        raise NotFound(f"no workbook with id {wb_id} that you can open", code="workbook_not_found")
    return wb


def _find_workbook(s: Session, actor: Person, ref: int | str) -> Workbook:
    if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdecimal()):
        wb = get(s, Workbook, int(ref))
        if wb is not None and role_of(s, actor, wb) is not None:
            return wb
        if isinstance(ref, int):
            raise NotFound(
                f"no workbook with id {ref} that you can open", code="workbook_not_found"
            )
    name = str(ref).strip()
    pattern = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    ids = read(s, _NAMED, {"p": actor.id, "name": pattern}).scalars().all()
    found = [get(s, Workbook, i) for i in ids]
    if not found:
        raise NotFound(
            f"no workbook named {name!r} that you can open (list them with sheets_list_workbooks)",
            code="workbook_not_found",
        )
    if len(found) > 1:
        ids_text = ", ".join(str(w.id) for w in found)
        raise Invalid(
            f"several workbooks are named {name!r} (ids {ids_text}); give the id", code="ambiguous"
        )
    return found[0]


def require_edit(s: Session, actor: Person, wb: Workbook) -> Access:
    """The actor's role if they may change the workbook, which is then theirs alone until
    the transaction ends (`_take_turn`); NotFound or Forbidden otherwise."""
    role = role_of(s, actor, wb)
    if role is None:
        raise NotFound(f"no workbook with id {wb.id} that you can open", code="workbook_not_found")
    if role == "viewer":
        raise Forbidden(
            f"you can only view {wb.name!r}; ask its owner for edit access", code="view_only"
        )
    _take_turn(s, wb)
    return role


_LOCK = select(Workbook.id).where(Workbook.id == bindparam("wb")).with_for_update()


def _take_turn(s: Session, wb: Workbook) -> None:
    """Writers of one workbook take turns: a write loads the workbook's cells, changes
    them, recalculates and saves, so two at once would each miss the other's cells (two
    rows at one address, a SUM missing an input, an append landing on another). On
    PostgreSQL the workbook's row is locked (``FOR UPDATE``) and the cells are read
    afresh after it; a served SQLite file's transactions hold the write lock from their
    start, and an in-memory world has one connection."""
    if s.get_bind().dialect.name == "sqlite":
        return
    read(s, _LOCK, {"wb": wb.id})
    if s.info.get("memo") is None:  # a runner's session owns its world: its book is current
        store.forget(s, wb.id)


def require_owner(s: Session, actor: Person, wb: Workbook, what: str) -> None:
    if wb.owner_id != actor.id:
        raise Forbidden(f"only the owner of {wb.name!r} can {what}", code="not_owner")
