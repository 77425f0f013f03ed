"""JSON-able views of CRM records, as tools return them: ids, names and plain values
(dates as ISO strings, people as handle plus name)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.orm import object_session

from officegym.apps.crm.models import Activity, FieldHistory
from officegym.apps.org.models import Person
from officegym.apps.org.service import Profile, profile

__all__ = ["activity_view", "history_view", "person_view", "plain", "record_view"]

COLUMNS: dict[str, tuple[str, ...]] = {
    "account": ("id", "name", "type", "industry", "website", "phone", "billing_city",
                "billing_country", "annual_revenue", "employees"),
    "contact": ("id", "name", "first_name", "last_name", "title", "email", "phone", "account_id"),
    "lead": ("id", "name", "first_name", "last_name", "company", "title", "email", "phone",
             "industry", "status", "source", "rating"),
    "opportunity": ("id", "name", "account_id", "contact_id", "stage", "probability", "amount",
                    "close_date", "next_step", "type", "lead_source", "loss_reason"),
    "case": ("id", "number", "subject", "status", "priority", "origin", "account_id",
             "contact_id"),
}  # fmt: skip
DETAIL: dict[str, tuple[str, ...]] = {
    "account": ("description", "created_at"),
    "contact": ("created_at",),
    "lead": ("created_at", "converted_at", "converted_account_id", "converted_contact_id",
             "converted_opportunity_id"),
    "opportunity": ("description", "created_at", "closed_at"),
    "case": ("description", "resolution", "created_at", "closed_at"),
}  # fmt: skip


def plain(value: Any) -> Any:
    """A JSON-able form of a column value."""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def person_view(p: Person) -> dict[str, Any]:
    card = _card(p, p.id)
    return {"handle": card.handle, "name": card.name, "title": card.title, "team": card.team}


def _card(obj: Any, person_id: int) -> Profile:
    """The directory card of a person a loaded row points to (no query: see org.profile)."""
    return profile(object_session(obj), person_id)  # type: ignore[arg-type]


def record_view(record_type: str, record: Any, *, detail: bool = False) -> dict[str, Any]:
    """The fields of a record, its owner, and the names of the records it points to."""
    names = COLUMNS[record_type] + (DETAIL[record_type] if detail else ())
    out = {k: plain(getattr(record, k)) for k in names}
    owner = _card(record, record.owner_id)
    out["owner"] = owner.handle
    out["owner_name"] = owner.name
    if getattr(record, "account_id", None) is not None and record_type != "account":
        out["account"] = record.account.name
    if getattr(record, "contact_id", None) is not None:
        out["contact"] = record.contact.name
    return out


def activity_view(a: Activity) -> dict[str, Any]:
    return {
        "id": a.id,
        "kind": a.kind,
        "subject": a.subject,
        "body": a.body,
        "status": a.status,
        "due_date": plain(a.due_date),
        "record_type": a.record_type,
        "record_id": a.record_id,
        "owner": _card(a, a.owner_id).handle,
        "created_at": plain(a.created_at),
    }


def history_view(h: FieldHistory) -> dict[str, Any]:
    return {
        "field": h.field,
        "old": h.old_value,
        "new": h.new_value,
        "changed_by": _card(h, h.changed_by_id).handle,
        "changed_at": plain(h.changed_at),
    }
