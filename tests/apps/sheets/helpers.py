"""Who owns what in the seeded sheets, found by workbook name (no hard-coded ids)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Share, Workbook
from officegym.tools import ToolContext, call_tool, load_tools


def workbook(s: Session, name: str) -> Workbook:
    return s.scalars(select(Workbook).where(Workbook.name == name)).one()


def owner(s: Session, name: str) -> Person:
    return s.get_one(Person, workbook(s, name).owner_id)


def stranger(s: Session, wb: Workbook) -> Person:
    """Someone with no access at all to a workbook (not owner, not shared, no link)."""
    shared = set(s.scalars(select(Share.person_id).where(Share.workbook_id == wb.id)))
    for p in s.scalars(select(Person).order_by(Person.id)):
        if p.id != wb.owner_id and p.id not in shared:
            return p
    raise LookupError("everyone can open it")


def values(s: Session, actor: Person, wb: Workbook, ref: str) -> list[list[Any]]:
    return sheets.read_range(s, actor, wb, ref).rows


def call(s: Session, actor: Person, tool_name: str, /, **arguments: Any) -> Any:
    load_tools()
    return call_tool(ToolContext(s, actor.id), tool_name, arguments)
