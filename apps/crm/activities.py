"""Activities (calls, meetings, emails, tasks, notes) logged on any record, and the
field history of a record."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.crm import fields
from officegym.apps.crm.access import require_edit
from officegym.apps.crm.models import Activity, FieldHistory
from officegym.apps.crm.records import get_record
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, NotFound

__all__ = ["complete_activity", "field_history", "get_activity", "list_activities", "log_activity"]


def log_activity(
    s: Session,
    actor: Person,
    *,
    record_type: str,
    record_id: int,
    kind: str,
    subject: str,
    body: str = "",
    due_date: dt.date | str | None = None,
    status: str | None = None,
) -> Activity:
    """Log a call, meeting, email, task or note on any record the actor can read; tasks
    start Open, everything else Completed. The actor owns the activity."""
    get_record(s, actor, record_type, record_id)
    values = {"kind": kind, "subject": subject, "body": body, "due_date": due_date}
    values["status"] = status or ("Open" if str(kind).lower() == "task" else "Completed")
    clean = fields.clean_all(s, "activity", values)
    where = {"record_type": record_type, "record_id": record_id}
    activity = Activity(**clean, **where, owner_id=actor.id, created_at=now(s))
    s.add(activity)
    s.flush()
    return activity


def get_activity(s: Session, actor: Person, activity_id: int) -> Activity:
    """An activity by id (every CRM user may read it)."""
    activity = get(s, Activity, activity_id)
    if activity is None:
        raise NotFound(f"no activity with id {activity_id}", code="activity_not_found")
    get_record(s, actor, activity.record_type, activity.record_id)
    return activity


def complete_activity(s: Session, actor: Person, activity: Activity) -> Activity:
    """Mark an open task (or other activity) Completed."""
    require_edit(s, actor, activity, f"activity {activity.id}")
    if activity.status == "Completed":
        raise Conflict(f"activity {activity.id} is already completed")
    fields.record_changes(s, actor, "activity", activity, {"status": "Completed"})
    return activity


_ACTIVITIES = (
    select(Activity)
    .where(Activity.record_type == bindparam("t"), Activity.record_id == bindparam("r"))
    .order_by(Activity.created_at.desc(), Activity.id.desc())
)
_HISTORY = (
    select(FieldHistory)
    .where(FieldHistory.record_type == bindparam("t"), FieldHistory.record_id == bindparam("r"))
    .order_by(FieldHistory.id.desc())
)


def list_activities(s: Session, actor: Person, record_type: str, record_id: int) -> list[Activity]:
    """Activities logged on a record, newest first."""
    get_record(s, actor, record_type, record_id)
    return list(s.scalars(_ACTIVITIES, {"t": record_type, "r": record_id}))


def field_history(
    s: Session, actor: Person, record_type: str, record_id: int
) -> list[FieldHistory]:
    """Every recorded field change of a record, newest first."""
    get_record(s, actor, record_type, record_id)
    return list(s.scalars(_HISTORY, {"t": record_type, "r": record_id}))
