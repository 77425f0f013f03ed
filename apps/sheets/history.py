"""The change history of workbooks: one `sheets_change` row per operation, which
graders and people read (`history`)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Change, Workbook
from officegym.clock import now
from officegym.writes import update_row

__all__ = ["history", "record"]

MAX_DETAIL = 20  # cells described per change
_INSERT = Change.__table__.insert()


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
    without an object in the session (nothing reads it back in the same operation, and an
    edit is timed in milliseconds); `history` reads it from the database."""
    when = now(s)
    text = detail if isinstance(detail, str) else json.dumps(detail, default=str)[:4000]
    s.flush()
    s.connection().execute(
        _INSERT,
        {
            "workbook_id": wb.id,
            "sheet_id": sheet_id,
            "actor_id": actor.id,
            "at": when,
            "action": action,
            "target": target[:200],
            "detail": text,
        },
    )
    memo.changed(s, Change)
    update_row(s, wb, updated_at=when)


def history(s: Session, wb: Workbook, *, limit: int = 50) -> list[Change]:
    """The latest changes of a workbook, newest first."""
    stmt = select(Change).where(Change.workbook_id == wb.id).order_by(Change.id.desc()).limit(limit)
    return list(s.scalars(stmt))
