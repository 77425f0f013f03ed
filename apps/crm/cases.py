"""Case rules: numbering, escalation, closing with a resolution, reopening."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import fields, records
from officegym.apps.crm.access import require_assignable, require_edit
from officegym.apps.crm.activities import log_activity
from officegym.apps.crm.fields import FieldError
from officegym.apps.crm.models import Case
from officegym.apps.crm.records import describe
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.errors import Conflict

__all__ = ["close_case", "escalate_case", "prepare_case", "update_case"]

Values = dict[str, Any]


def prepare_case(s: Session, v: Values, _imported: bool = False) -> tuple[Values, Values]:
    """A new case is New or Working, Medium priority by default, with the next number."""
    v["status"] = v.get("status") or "New"
    v["priority"] = v.get("priority") or "Medium"
    if str(v["status"]).lower() not in ("new", "working"):
        raise FieldError("case", "status", "a new case is New or Working")
    return v, {"number": _next_case_number(s)}


_MAX_CASE = select(func.coalesce(func.max(Case.number), "00001000"))


def _next_case_number(s: Session) -> str:
    return f"{int(s.scalar(_MAX_CASE) or 1000) + 1:08d}"


def update_case(s: Session, actor: Person, rt: str, case: Case, v: Values) -> list[str]:
    status = str(v.get("status", "")).lower()
    if status == "closed" and case.status != "Closed":
        raise FieldError("case", "status", "close a case with close_case (it needs a resolution)")
    if status == "escalated" and case.status != "Escalated":
        raise FieldError("case", "status", "escalate a case with escalate_case")
    if case.status != "Closed":
        return records.update(s, actor, rt, case, v)
    if set(v) != {"status"} or status not in ("new", "working"):
        raise Conflict(f"case {case.number} is closed; reopen it (status Working) to edit it")
    changed = records.update(s, actor, rt, case, v)
    return changed + fields.record_changes(s, actor, rt, case, {"closed_at": None})


def escalate_case(
    s: Session, actor: Person, case: Case, *, reason: str, owner: Person | None = None
) -> Case:
    """Escalate an open case: status Escalated, priority at least High, the reason logged
    as a note on the case, and optionally a new owner."""
    require_edit(s, actor, case, describe("case", case))
    if case.status == "Closed":
        raise Conflict(f"case {case.number} is closed; reopen it before escalating")
    if case.status == "Escalated":
        raise Conflict(f"case {case.number} is already escalated")
    reason = (reason or "").strip()
    if not reason:
        raise FieldError("case", "reason", "an escalation needs a reason")
    if owner is not None and owner.id != case.owner_id:
        require_assignable(s, actor, owner)
    values: Values = {"status": "Escalated"}
    if case.priority in ("Low", "Medium"):
        values["priority"] = "High"
    with s.begin_nested():
        fields.record_changes(s, actor, "case", case, values)
        note = f"Escalated: {reason}"[:200]
        log_activity(s, actor, record_type="case", record_id=case.id, kind="note", subject=note)
        if owner is not None and owner.id != case.owner_id:
            fields.record_changes(s, actor, "case", case, {"owner_id": owner.id})
    return case


def close_case(s: Session, actor: Person, case: Case, *, resolution: str) -> Case:
    """Close a case with a resolution; closed cases stay read-only until reopened."""
    require_edit(s, actor, case, describe("case", case))
    if case.status == "Closed":
        raise Conflict(f"case {case.number} is already closed")
    text = fields.clean(s, "case", "description", resolution)
    if not text:
        raise FieldError("case", "resolution", "is required to close a case")
    values = {"status": "Closed", "resolution": text, "closed_at": now(s)}
    fields.record_changes(s, actor, "case", case, values)
    return case
