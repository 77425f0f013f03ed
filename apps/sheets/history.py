"""The change history of workbooks: one `sheets_change` row per operation, which
graders and people read (`history`)."""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import Dialect, select
from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Change, Workbook
from officegym.clock import now
from officegym.db import cursor, mark
from officegym.writes import update_row

__all__ = ["history", "record"]

MAX_DETAIL = 20  # cells described per change
_FIELDS = ("workbook_id", "sheet_id", "actor_id", "at", "action", "target", "detail")


@functools.cache
def _insert_sql(mark: str) -> str:
    marks = ", ".join([mark] * len(_FIELDS))
    return f"INSERT INTO {Change.__tablename__} ({', '.join(_FIELDS)}) VALUES ({marks})"


def _stored_time(s: Session, when: dt.datetime) -> Any:
    """`when` as SQLAlchemy would bind it for this database (SQLite stores text)."""
    return _time_binder(s.get_bind().dialect)(when)


@functools.cache
def _time_binder(dialect: Dialect) -> Callable[[Any], Any]:
    column_type = Change.__table__.c.at.type
    process = column_type.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else (lambda v: v)


def record(
    s: Session,
    actor: Person,
    wb: Workbook,
    action: str,
    target: str = "",
    detail: Any = "",
    sheet_id: int | None = None,
) -> None:
    """Log one change and touch the workbook's modification time. The row is inserted
    through the DB-API cursor, without an object in the session (nothing reads it back in
    the same operation, and an edit is timed in milliseconds; SQLAlchemy's statement costs
    a few tenths of one), its time bound as SQLAlchemy binds it; `history` reads it."""
    when = now(s)
    text = detail if isinstance(detail, str) else json.dumps(detail, default=str)[:4000]
    row = [wb.id, sheet_id, actor.id, _stored_time(s, when), action, target[:200], text]
    cursor(s).execute(_insert_sql(mark(s)), row)
    memo.changed(s, Change)
    update_row(s, wb, updated_at=when)


def history(s: Session, wb: Workbook, *, limit: int = 50) -> list[Change]:
    """The latest changes of a workbook, newest first."""
    stmt = select(Change).where(Change.workbook_id == wb.id).order_by(Change.id.desc()).limit(limit)
    return list(s.scalars(stmt))
